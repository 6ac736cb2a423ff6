/**
 * The smoke must fail a CLI that misbehaves, naming what is wrong, and pass the real one. Fake
 * CLIs are tiny scripts written to a temporary folder; the real one is apps/cli/dist.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKS, runSmoke } from '../src/smoke-checks.mjs';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const realCli = join(repoRoot, 'apps', 'cli');
const smokeBin = fileURLToPath(new URL('../bin/smoke.mjs', import.meta.url));
const testkitBuilt = existsSync(join(repoRoot, 'packages', 'testkit', 'dist', 'index.js'));

let scratch: string | undefined;
afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** A CLI folder whose dist/bin.js is `source` and whose package.json says version 9.9.9. */
function fakeCli(source: string): string {
  scratch = mkdtempSync(join(tmpdir(), 'node-matrix-fake-cli-'));
  mkdirSync(join(scratch, 'dist'));
  writeFileSync(join(scratch, 'package.json'), '{ "version": "9.9.9" }\n');
  writeFileSync(join(scratch, 'dist', 'bin.js'), source);
  return scratch;
}

describe.skipIf(!testkitBuilt)('runSmoke', () => {
  it('fails every check of a CLI that prints nothing, saying what was expected', async () => {
    const results = await runSmoke({ node: process.execPath, cliDir: fakeCli('') });
    expect(results.map((r) => [r.name, r.ok])).toEqual(CHECKS.map(([name]) => [name, false]));
    const [version, demo, chat, search] = results.map((r) => r.detail);
    expect(version).toContain("expected 'hermes 9.9.9', exit 0; got exit 0");
    expect(demo).toContain("missing: 'a SCRIPTED conversation'");
    expect(demo).toContain('saved as session <id>');
    expect(chat).toContain('the server saw 0 model requests, not 1');
    expect(chat).toContain('no state.db in the data home');
    expect(search).toContain('0 model requests; the tool result was missing');
  });

  it('reports a crash with its exit code and output', async () => {
    const cliDir = fakeCli("console.error('boom: no native addon'); process.exit(3);\n");
    const [result] = await runSmoke({
      node: process.execPath,
      cliDir,
      only: ['hermes --version'],
    });
    expect(result).toMatchObject({ name: 'hermes --version', ok: false });
    expect(result?.detail).toContain('got exit 3');
    expect(result?.detail).toContain('| boom: no native addon');
  });

  it('bin/smoke.mjs prints FAIL lines and exits 1 for a failing CLI', () => {
    const run = spawnSync(process.execPath, [smokeBin, fakeCli('process.exit(1);\n')], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('  FAIL hermes --version');
    expect(run.stdout).toContain(`smoke: Node ${process.version} FAIL (5 of 5 checks)`);
  }, 120_000);

  it.skipIf(!existsSync(join(realCli, 'dist', 'bin.js')))(
    'passes the built CLI: --version, demo, chat -q and the session found again',
    async () => {
      // search_files is left out here: whether it passes depends on the tools package's
      // ripgrep backend, which packages/tools tests; the matrix itself runs every check.
      const only = [
        'hermes --version',
        'hermes demo',
        'hermes chat -q (testkit server) + sessions search',
      ];
      const results = await runSmoke({ node: process.execPath, cliDir: realCli, only });
      expect(results.map((r) => (r.ok ? r.name : `${r.name}: ${r.detail}`))).toEqual(only);
    },
    120_000,
  );
});
