/**
 * Gives every test its own temporary `HERMES_HOME`, so no test can read or write the real
 * `~/.hermes`. Tests that need the path read `process.env.HERMES_HOME`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

let home: string | undefined;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'hermes-home-'));
  process.env.HERMES_HOME = home;
});

afterEach(() => {
  if (home) rmSync(home, { recursive: true, force: true });
  home = undefined;
  delete process.env.HERMES_HOME;
});
