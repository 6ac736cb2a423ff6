import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ExecuteOptions, type ExecuteResult, LocalEnvironment } from '@hermes/environments';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { globMatcher } from '../../src/core/glob.js';
import { createSearchFilesTool, type SearchBackendChoice } from '../../src/core/search-files.js';
import { parseRipgrepOutput, ripgrepCommand } from '../../src/core/search-rg.js';
import type { SearchRequest } from '../../src/core/search-types.js';
import { needs, onPath } from '../support/programs.js';
import { call, makeContext, text } from './context.js';

const hasRg = onPath('rg');

/** A local environment that records every command it runs. */
class RecordingEnvironment extends LocalEnvironment {
  readonly commands: string[] = [];
  override execute(command: string, options?: ExecuteOptions): Promise<ExecuteResult> {
    this.commands.push(command);
    return super.execute(command, options);
  }
}

let dir: string;
let env: RecordingEnvironment;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hermes-search-'));
  env = new RecordingEnvironment({ cwd: dir, loginShellEnv: false });
  mkdirSync(join(dir, 'src/deep'), { recursive: true });
  mkdirSync(join(dir, 'build'));
  mkdirSync(join(dir, '.hidden'));
  writeFileSync(join(dir, '.gitignore'), 'build/\n*.log\n');
  writeFileSync(
    join(dir, 'src/a.ts'),
    'const alpha = 1;\nconst beta = 2;\nconst gamma = alpha + beta;\n',
  );
  writeFileSync(join(dir, 'src/deep/b.ts'), 'export const alpha = 3;\n');
  writeFileSync(join(dir, 'src/deep/.gitignore'), 'skip.ts\n');
  writeFileSync(join(dir, 'src/deep/skip.ts'), 'alpha\n');
  writeFileSync(join(dir, 'src/c.md'), 'alpha in docs\n');
  writeFileSync(join(dir, 'build/out.ts'), 'alpha\n');
  writeFileSync(join(dir, 'debug.log'), 'alpha\n');
  writeFileSync(join(dir, '.hidden/h.ts'), 'alpha\n');
  writeFileSync(join(dir, 'bin.dat'), Buffer.from([97, 108, 112, 104, 97, 0, 1]));
});
afterEach(async () => {
  await env.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The same behaviour from every backend: the walker (needs nothing), ripgrep chosen explicitly,
 * and the default (no option: `auto`), which must pick ripgrep when `rg` is on PATH. Without `rg`
 * the two ripgrep suites are registered and reported as skipped, naming rg.
 */
const suites: Array<{ title: string; backend: SearchBackendChoice | undefined; needsRg: boolean }> =
  [
    { title: 'the walker backend', backend: 'walker', needsRg: false },
    { title: 'the ripgrep backend', backend: 'ripgrep', needsRg: true },
    { title: 'the default backend, which must pick ripgrep', backend: undefined, needsRg: true },
  ];

for (const { title, backend, needsRg } of suites) {
  describe.skipIf(needsRg && !hasRg)(
    `search_files with ${title}${needsRg ? needs('rg') : ''}`,
    () => {
      const tool = createSearchFilesTool(backend === undefined ? {} : { backend });
      const ctx = () => makeContext({ environment: env });

      afterEach(() => {
        // Each suite really ran its backend: rg through the environment, or no command at all.
        const ranRg = env.commands.some((command) => command.startsWith('rg '));
        expect(ranRg).toBe(needsRg);
      });

      it('finds content, honouring .gitignore (nested too), hidden dirs and binary files', async () => {
        const out = await text(call(tool, { pattern: 'alph[a]' }, ctx()));
        const lines = out.split('\n');
        expect(lines.slice(0, -1).sort()).toEqual([
          'src/a.ts:1:const alpha = 1;',
          'src/a.ts:3:const gamma = alpha + beta;',
          'src/c.md:1:alpha in docs',
          'src/deep/b.ts:1:export const alpha = 3;',
        ]);
        expect(lines.at(-1)).toBe('[results 1-4]');
      });

      it('filters by file_glob, shows context, and pages with limit/offset', async () => {
        expect(await text(call(tool, { pattern: 'alpha', file_glob: '*.md' }, ctx()))).toBe(
          'src/c.md:1:alpha in docs\n[results 1-1]',
        );
        const ts = { pattern: 'alpha', file_glob: '*.ts', output_mode: 'files_only' };
        // src/deep/skip.ts matches the glob but is ignored: a file_glob never overrides .gitignore.
        expect((await text(call(tool, ts, ctx()))).split('\n').slice(0, -1).sort()).toEqual([
          'src/a.ts',
          'src/deep/b.ts',
        ]);
        const withContext = await text(
          call(tool, { pattern: 'beta =', path: 'src/a.ts', context: 1 }, ctx()),
        );
        expect(withContext).toContain('src/a.ts-1-const alpha = 1;');
        expect(withContext).toContain('src/a.ts:2:const beta = 2;');
        const page = await text(call(tool, { pattern: 'alpha', path: 'src', limit: 2 }, ctx()));
        expect(page).toMatch(/\[results 1-2; more available: use offset=2\]$/);
      });

      it('supports files_only and count modes', async () => {
        const files = await text(
          call(tool, { pattern: 'alpha', output_mode: 'files_only', path: 'src' }, ctx()),
        );
        expect(files.split('\n').slice(0, -1).sort()).toEqual([
          'src/a.ts',
          'src/c.md',
          'src/deep/b.ts',
        ]);
        expect(
          await text(
            call(tool, { pattern: 'alpha', output_mode: 'count', path: 'src/a.ts' }, ctx()),
          ),
        ).toContain(':2');
      });

      it('finds files by name glob', async () => {
        const out = await text(call(tool, { pattern: '*.ts', target: 'files' }, ctx()));
        expect(out.split('\n').slice(0, -1).sort()).toEqual(['src/a.ts', 'src/deep/b.ts']);
      });

      it('says when nothing matches and rejects a bad regex', async () => {
        expect(await text(call(tool, { pattern: 'zzz_nothing' }, ctx()))).toContain('No matches');
        await expect(call(tool, { pattern: '(unclosed' }, ctx())).rejects.toThrow();
      });
    },
  );
}

describe('search_files backend selection', () => {
  const probe = (command: string) => command.startsWith('command -v rg');

  it.skipIf(!hasRg)(
    `by default asks the environment for rg, then runs rg there${needs('rg')}`,
    async () => {
      const tool = createSearchFilesTool();
      const out = await text(call(tool, { pattern: 'beta =' }, makeContext({ environment: env })));
      expect(out).toBe('src/a.ts:2:const beta = 2;\n[results 1-1]');
      expect(env.commands).toHaveLength(2);
      expect(probe(env.commands[0] ?? '')).toBe(true);
      expect(env.commands[1]).toMatch(
        /^rg --null .* -e 'beta =' <\/dev\/null 2>&1 \| head -n 51 \| tr /,
      );
    },
  );

  it('by default falls back to the walker when the environment has no rg on its PATH', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'hermes-no-rg-'));
    const noRg = new RecordingEnvironment({ cwd: dir, loginShellEnv: false, env: { PATH: bare } });
    try {
      const tool = createSearchFilesTool();
      const out = await text(call(tool, { pattern: 'beta =' }, makeContext({ environment: noRg })));
      expect(out).toBe('src/a.ts:2:const beta = 2;\n[results 1-1]');
      expect(noRg.commands).toHaveLength(1);
      expect(probe(noRg.commands[0] ?? '')).toBe(true);
    } finally {
      await noRg.cleanup();
      rmSync(bare, { recursive: true, force: true });
    }
  });
});

describe('search helpers', () => {
  it('globMatcher matches names at any depth, or whole paths when the glob has a slash', () => {
    expect(globMatcher('*.ts')('a/b/c.ts')).toBe(true);
    expect(globMatcher('*.{ts,md}')('x.md')).toBe(true);
    expect(globMatcher('src/**/*.ts')('src/a/b.ts')).toBe(true);
    expect(globMatcher('src/**/*.ts')('src/b.ts')).toBe(true);
    expect(globMatcher('src/*.ts')('lib/b.ts')).toBe(false);
  });

  const request: SearchRequest = {
    target: 'content',
    pattern: "it's",
    root: '.',
    context: 1,
    outputMode: 'content',
    maxResults: 11,
    signal: new AbortController().signal,
  };

  it('builds a quoted rg command line', () => {
    expect(ripgrepCommand(request, 'my dir')).toBe(
      "rg --null --color never --no-messages --no-require-git --no-heading --with-filename --line-number --max-columns 500 --max-columns-preview --context 1 -e 'it'\\''s' -- 'my dir' </dev/null 2>&1 | head -n 11 | tr '\\000' '\\001'",
    );
  });

  it('parses paths ended by U+0001, as the command sends them, since an environment drops NUL', () => {
    expect(parseRipgrepOutput('a.ts\u00012:x\n', request)).toEqual([
      { kind: 'match', path: 'a.ts', line: 2, text: 'x' },
    ]);
    const files = { ...request, outputMode: 'files_only' as const };
    expect(parseRipgrepOutput('a.ts\u0001b c.ts\u0001', files)).toEqual([
      { kind: 'file', path: 'a.ts' },
      { kind: 'file', path: 'b c.ts' },
    ]);
  });

  it('parses rg match, context and separator lines, and surfaces rg errors', () => {
    const output = "a.ts\u00001-before\na.ts\u00002:it's here\n--\nb.ts\u00009:x:y\n";
    expect(parseRipgrepOutput(output, request)).toEqual([
      { kind: 'context', path: 'a.ts', line: 1, text: 'before' },
      { kind: 'match', path: 'a.ts', line: 2, text: "it's here" },
      { kind: 'match', path: 'b.ts', line: 9, text: 'x:y' },
    ]);
    expect(() => parseRipgrepOutput('regex parse error:\n    (unclosed\n', request)).toThrow(
      /ripgrep failed/,
    );
  });
});
