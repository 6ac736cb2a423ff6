/**
 * The built executable loads `dist/hermes.cjs` through V8's code cache kept in
 * `HERMES_HOME/cache/code-cache/`: written by the first run of a command, reused by the next,
 * replaced when it is unusable, never written by the demo.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hermesHome, runHermes, workDir } from './chat-harness.ts';

const cacheDir = (): string => join(hermesHome(), 'cache', 'code-cache');
const cacheFiles = (): string[] => (existsSync(cacheDir()) ? readdirSync(cacheDir()).sort() : []);

describe('code cache of the built executable', () => {
  it('is written per command by the first run, reused, and replaced when corrupt', async () => {
    const cwd = workDir();
    const first = await runHermes(['config', 'path'], cwd);
    expect(first.code).toBe(0);
    const [file] = cacheFiles();
    expect(file).toMatch(/^hermes-[0-9a-f]{8}-config\.bin$/);
    const path = join(cacheDir(), file as string);
    const written = statSync(path).mtimeMs;
    expect(statSync(path).size).toBeGreaterThan(10_000);

    // A valid cache is read, not rewritten; the command behaves the same.
    const second = await runHermes(['config', 'path'], cwd);
    expect(second).toEqual(first);
    expect(statSync(path).mtimeMs).toBe(written);

    // Garbage in the cache costs a normal compile and is replaced by a valid cache.
    writeFileSync(path, 'not a code cache');
    const third = await runHermes(['config', 'path'], cwd);
    expect(third).toEqual(first);
    expect(readFileSync(path).length).toBeGreaterThan(10_000);

    // Another command gets its own cache beside it.
    expect((await runHermes(['tools', 'list'], cwd)).code).toBe(0);
    expect(cacheFiles()).toEqual([file, (file as string).replace('-config.bin', '-tools.bin')]);
  });

  it('is not written into a data home that does not exist', async () => {
    const missing = join(hermesHome(), 'not-created');
    const result = await runHermes(['config', 'path'], workDir(), { HERMES_HOME: missing });
    expect(result.code).toBe(0);
    expect(existsSync(missing)).toBe(false);
  });
});
