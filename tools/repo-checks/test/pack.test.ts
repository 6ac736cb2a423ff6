import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  checkPack,
  checkPackFiles,
  describeError,
  listPackFiles,
  mapWithConcurrency,
  PACK_CONCURRENCY,
  parsePackJson,
} from '../src/pack.mjs';
import { makeFixture, manifest } from './fixture.ts';

const GOOD = ['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/index.js.map'];

describe('checkPackFiles', () => {
  it('accepts dist/, README.md, package.json and a license', () => {
    expect(checkPackFiles('@hermes/x', [...GOOD, 'LICENSE'])).toEqual([]);
    expect(checkPackFiles('@hermes/x', [...GOOD, 'LICENSE.md', 'dist/sub/a.js'])).toEqual([]);
    expect(checkPackFiles('@hermes/x', [...GOOD, 'LICENCE.txt'])).toEqual([]);
  });

  it('names every unexpected file', () => {
    expect(
      checkPackFiles('@hermes/x', [...GOOD, 'src/index.ts', 'tsconfig.json', 'test/a.test.ts']),
    ).toEqual([
      '@hermes/x ships unexpected file src/index.ts',
      '@hermes/x ships unexpected file test/a.test.ts',
      '@hermes/x ships unexpected file tsconfig.json',
    ]);
  });

  it('requires the built entry and its types', () => {
    expect(checkPackFiles('@hermes/x', ['package.json', 'dist/index.js'])).toEqual([
      '@hermes/x is missing dist/index.d.ts (build it, and keep dist in "files")',
    ]);
    expect(checkPackFiles('@hermes/x', ['package.json'])).toHaveLength(2);
  });

  it('does not mistake look-alikes for allowed files', () => {
    expect(
      checkPackFiles('@hermes/x', [...GOOD, 'distfoo.js', 'README.txt', 'src/dist/a.js']),
    ).toEqual([
      '@hermes/x ships unexpected file README.txt',
      '@hermes/x ships unexpected file distfoo.js',
      '@hermes/x ships unexpected file src/dist/a.js',
    ]);
  });
});

describe('parsePackJson', () => {
  it('reads the paths out of npm pack --json output', () => {
    const stdout = JSON.stringify([{ name: 'x', files: [{ path: 'package.json', size: 1 }] }]);
    expect(parsePackJson(stdout)).toEqual(['package.json']);
  });

  it('rejects output without a file list', () => {
    expect(() => parsePackJson('[]')).toThrow('no file list');
  });
});

describe('describeError', () => {
  it('prefers npm’s own error line over the generic command failure', () => {
    const error = Object.assign(new Error('Command failed: npm pack\nnoise'), {
      stderr: 'npm warn something\nnpm error Invalid package.json\n',
    });
    expect(describeError(error)).toBe('npm error Invalid package.json');
    expect(describeError(new Error('\nspawn npm ENOENT'))).toBe('spawn npm ENOENT');
  });
});

describe('mapWithConcurrency', () => {
  it('keeps input order and never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const results = await mapWithConcurrency([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, n * 2));
      running--;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30, 0, 60]);
    expect(peak).toBe(3);
  });
});

describe('checkPack (npm replaced)', () => {
  it('checks only non-private members of packages/ and apps/, reporting per package', async () => {
    const root = makeFixture({
      'packages/good/package.json': manifest({ name: '@hermes/good' }),
      'packages/leaky/package.json': manifest({ name: '@hermes/leaky' }),
      'packages/internal/package.json': manifest({ name: '@hermes/internal', private: true }),
      'apps/cli/package.json': manifest({ name: '@hermes/cli' }),
      'plugins/p/package.json': manifest({ name: '@hermes/plugin-p' }),
      'packages/broken/package.json': manifest({ name: '@hermes/broken' }),
    });
    let peak = 0;
    let running = 0;
    const results = await checkPack(root, {
      listFiles: async (dir) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        if (dir.endsWith('broken')) throw new Error('npm exploded');
        return dir.endsWith('leaky') ? [...GOOD, 'src/index.ts'] : GOOD;
      },
    });
    expect(results.map((r) => [r.relDir, r.problems])).toEqual([
      ['packages/broken', ['npm pack failed: npm exploded']],
      ['packages/good', []],
      ['packages/leaky', ['@hermes/leaky ships unexpected file src/index.ts']],
      ['apps/cli', []],
    ]);
    expect(peak).toBeLessThanOrEqual(PACK_CONCURRENCY);
  });
});

/** A package with a built dist/ and a stray src/ file that must never be published. */
function packageFixture(files: string[] | undefined) {
  return {
    'packages/fixture/package.json': JSON.stringify({
      name: '@hermes/fixture',
      version: '1.0.0',
      type: 'module',
      main: './dist/index.js',
      types: './dist/index.d.ts',
      files,
    }),
    'packages/fixture/README.md': '# fixture\n',
    'packages/fixture/dist/index.js': 'export const x = 1;\n',
    'packages/fixture/dist/index.d.ts': 'export declare const x = 1;\n',
    'packages/fixture/src/index.ts': 'export const x = 1;\n',
  };
}

/** True when `npm` is on PATH; the real-npm tests are reported as skipped, naming npm, without. */
function npmOnPath(): boolean {
  return spawnSync('/bin/sh', ['-c', 'command -v npm'], { stdio: 'ignore' }).status === 0;
}
const hasNpm = npmOnPath();

describe.skipIf(!hasNpm)(
  `npm pack --dry-run (real npm)${hasNpm ? '' : ' (skipped: npm is not on PATH)'}`,
  { timeout: 60_000 },
  () => {
    it('passes a package whose "files" is ["dist"]', async () => {
      const root = makeFixture(packageFixture(['dist']));
      const files = await listPackFiles(join(root, 'packages/fixture'));
      expect(files).toContain('dist/index.js');
      expect(files).not.toContain('src/index.ts');
      const results = await checkPack(root);
      expect(results).toEqual([expect.objectContaining({ name: '@hermes/fixture', problems: [] })]);
    });

    it('fails a package without "files", because src/ leaks', async () => {
      const root = makeFixture(packageFixture(undefined));
      const [result] = await checkPack(root);
      expect(result?.files).toContain('src/index.ts');
      expect(result?.problems).toEqual(['@hermes/fixture ships unexpected file src/index.ts']);
    });

    it('bin/check-pack.mjs exits 1 naming the package, and 0 with a summary when clean', () => {
      const bin = fileURLToPath(new URL('../bin/check-pack.mjs', import.meta.url));
      const leaky = spawnSync(process.execPath, [bin, makeFixture(packageFixture(undefined))], {
        encoding: 'utf8',
      });
      expect(leaky.status).toBe(1);
      expect(leaky.stderr).toContain(
        'pack: @hermes/fixture (packages/fixture): @hermes/fixture ships unexpected file src/index.ts',
      );
      const clean = spawnSync(process.execPath, [bin, makeFixture(packageFixture(['dist']))], {
        encoding: 'utf8',
      });
      expect(clean.status).toBe(0);
      expect(clean.stdout).toBe('pack: 1 package ship only dist/, README.md, package.json\n');
    });
  },
);
