/**
 * Staging copies the built CLI and the addon's sources so a per-Node build never touches the
 * repository's node_modules, and so the copy resolves the addon from itself.
 */
import { existsSync, lstatSync, mkdtempSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ADDON, runtimeClosure, stageCli } from '../src/stage-cli.mjs';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const built = existsSync(join(repoRoot, 'apps', 'cli', 'dist', 'bin.js'));

let scratch: string | undefined;
afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

function scratchDir(): string {
  scratch = mkdtempSync(join(tmpdir(), 'node-matrix-stage-'));
  return scratch;
}

describe('runtimeClosure', () => {
  it('is the addon and what it loads at run time, without the prebuilt-binary downloader', () => {
    const names = runtimeClosure(ADDON, join(repoRoot, 'apps', 'cli')).map((p) => p.name);
    expect(names[0]).toBe('better-sqlite3');
    expect(names).toContain('bindings');
    expect(names).not.toContain('prebuild-install');
  });
});

describe.skipIf(!built)('stageCli', () => {
  it('copies dist and the addon sources (no build/), and the copy resolves the addon from itself', () => {
    const root = join(scratchDir(), 'stage');
    const staged = stageCli(repoRoot, root);
    const bundle = join(staged.cliDir, 'dist', 'hermes.cjs');
    expect(lstatSync(join(staged.cliDir, 'dist')).isDirectory()).toBe(true);
    expect(realpathSync(bundle)).toBe(bundle);
    expect(existsSync(join(staged.addonDir, 'binding.gyp'))).toBe(true);
    expect(existsSync(join(staged.addonDir, 'deps'))).toBe(true);
    expect(existsSync(join(staged.addonDir, 'build'))).toBe(false);
    expect(existsSync(join(staged.cliDir, 'node_modules', 'bindings', 'package.json'))).toBe(true);
    expect(existsSync(join(staged.cliDir, 'node_modules', 'prebuild-install'))).toBe(false);
    // Where the bundle's `require('better-sqlite3')` lands: the staged copy.
    const resolved = createRequire(bundle).resolve(`${ADDON}/package.json`);
    expect(resolved).toBe(join(staged.addonDir, 'package.json'));
    // The bundled skills are found the same way as in the repository.
    expect(readlinkSync(join(root, 'skills'))).toBe(join(repoRoot, 'skills'));
    expect(existsSync(join(root, 'pnpm-workspace.yaml'))).toBe(true);
  });

  it('refuses a folder that already exists, and an unbuilt repository', () => {
    const dir = scratchDir();
    expect(() => stageCli(repoRoot, dir)).toThrow(/already exists/);
    expect(() => stageCli(dir, join(dir, 'stage'))).toThrow(/build first/);
  });
});
