/**
 * The contract every {@link FileOperations} implementation honours, so the file tools behave the
 * same on every backend. Imports only types from the package.
 */
import { contractViolation } from '@hermes/protocol/testing';
import { afterEach, describe, it } from 'vitest';
import type { FileOperations } from './file-operations.js';

/** File operations under test plus an empty, writable, absolute directory to work in. */
export interface FileOperationsFixture {
  readonly files: FileOperations;
  readonly dir: string;
  readonly cleanup?: () => void | Promise<void>;
}

function same(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) contractViolation(`${what}: expected ${e}, got ${a}`);
}

/** Expects `promise` to reject with a file operation error of `reason` naming `path`. */
async function rejectsWith(promise: Promise<unknown>, reason: string, what: string): Promise<void> {
  const error = await promise.then(
    () => contractViolation(`${what} succeeded; expected a ${reason} error`),
    (e: unknown) => e as { reason?: string; message?: string; name?: string },
  );
  if (error.reason !== reason || error.name !== 'FileOperationError') {
    contractViolation(
      `${what} failed with ${String(error.name)} ${String(error.reason)}: ${error.message}`,
    );
  }
}

/** Checks write/read round trips of awkward content, with parent directories created. */
export async function checkWriteReadRoundTrip({
  files,
  dir,
}: FileOperationsFixture): Promise<void> {
  const content =
    'first ünïcødé ✓\r\nsecond\rthird\n\tindented "quotes" \'single\' $HOME `tick`\nno newline';
  const path = `${dir}/nested/deeper/file.txt`;
  const written = await files.writeText(path, content);
  same(written.bytes, Buffer.byteLength(content), 'bytes written');
  same(await files.readWhole(path), content, 'readWhole after writeText');
  await files.writeText(path, 'shorter');
  same(await files.readWhole(path), 'shorter', 'readWhole after overwriting');
}

/** Checks line ranges, line counts, empty files and binary detection. */
export async function checkReadRanges({ files, dir }: FileOperationsFixture): Promise<void> {
  const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
  await files.writeText(`${dir}/ten.txt`, `${lines.join('\n')}\n`);
  const middle = await files.readText(`${dir}/ten.txt`, { offset: 3, limit: 4 });
  same(
    middle,
    { lines: lines.slice(2, 6), totalLines: 10, startLine: 3, binary: false, size: 71 },
    'readText 3..6',
  );
  const past = await files.readText(`${dir}/ten.txt`, { offset: 9, limit: 50 });
  same(past.lines, lines.slice(8), 'readText past the end');
  await files.writeText(`${dir}/partial.txt`, 'a\nb');
  same(
    (await files.readText(`${dir}/partial.txt`)).totalLines,
    2,
    'a last line without newline counts',
  );
  await files.writeText(`${dir}/empty.txt`, '');
  same(
    await files.readText(`${dir}/empty.txt`),
    { lines: [], totalLines: 0, startLine: 1, binary: false, size: 0 },
    'an empty file',
  );
  await files.writeText(`${dir}/bin.dat`, 'abc\u0000def\n');
  const binary = await files.readText(`${dir}/bin.dat`);
  same([binary.binary, binary.lines, binary.size], [true, [], 8], 'a binary file');
}

/** Checks stat of a file, a directory and a missing path. */
export async function checkStat({ files, dir }: FileOperationsFixture): Promise<void> {
  await files.writeText(`${dir}/s.txt`, '12345');
  const file = await files.stat(`${dir}/s.txt`);
  same([file.exists, file.type, file.size], [true, 'file', 5], 'stat of a file');
  if (Math.abs(file.mtimeMs - Date.now()) > 10 * 60_000) {
    contractViolation(`stat mtimeMs ${file.mtimeMs} is not close to now (${Date.now()})`);
  }
  same((await files.stat(dir)).type, 'dir', 'stat of a directory');
  same(
    await files.stat(`${dir}/missing`),
    { exists: false, type: 'other', size: 0, mtimeMs: 0 },
    'stat of a missing path',
  );
}

/** Checks directory listings and the errors for missing paths and wrong types. */
export async function checkListAndErrors({ files, dir }: FileOperationsFixture): Promise<void> {
  await files.writeText(`${dir}/b.txt`, 'bb');
  await files.writeText(`${dir}/a dir/inner.txt`, 'x');
  await files.writeText(`${dir}/.hidden`, '');
  const entries = await files.list(dir);
  same(
    entries.filter((e) => e.type !== 'dir').map((e) => [e.name, e.type, e.size]),
    [
      ['.hidden', 'file', 0],
      ['b.txt', 'file', 2],
    ],
    'list files',
  );
  same(
    entries.map((e) => e.name),
    ['.hidden', 'a dir', 'b.txt'],
    'list names, sorted',
  );
  await rejectsWith(files.list(`${dir}/nope`), 'not_found', 'list of a missing directory');
  await rejectsWith(files.list(`${dir}/b.txt`), 'not_a_directory', 'list of a file');
  await rejectsWith(files.readText(`${dir}/nope.txt`), 'not_found', 'readText of a missing file');
  await rejectsWith(files.readWhole(`${dir}/a dir`), 'is_directory', 'readWhole of a directory');
  await rejectsWith(files.readText(`${dir}/a dir`), 'is_directory', 'readText of a directory');
}

/** Checks search: matches with line numbers, glob, case, limits and bad patterns. */
export async function checkSearch({ files, dir }: FileOperationsFixture): Promise<void> {
  await files.writeText(`${dir}/src/one.ts`, 'const alpha = 1;\nconst Beta = 2;\nalpha();\n');
  await files.writeText(`${dir}/src/two.md`, 'alpha in docs\n');
  const all = await files.search('alpha', { path: `${dir}/src` });
  same(
    all.map((m) => [m.path.replace(`${dir}/src/`, ''), m.line, m.text]).sort(),
    [
      ['one.ts', 1, 'const alpha = 1;'],
      ['one.ts', 3, 'alpha();'],
      ['two.md', 1, 'alpha in docs'],
    ],
    'search matches',
  );
  same(
    (await files.search('alpha', { path: `${dir}/src`, glob: '*.md' })).length,
    1,
    'search with a glob',
  );
  same(
    (await files.search('beta', { path: `${dir}/src`, ignoreCase: true })).map((m) => m.line),
    [2],
    'case-insensitive search',
  );
  same(
    (await files.search('alpha', { path: `${dir}/src`, maxResults: 2 })).length,
    2,
    'search maxResults',
  );
  same(await files.search('no-such-text', { path: `${dir}/src` }), [], 'search without matches');
  await rejectsWith(
    files.search('(unclosed', { path: dir }),
    'bad_pattern',
    'search with a bad pattern',
  );
}

/**
 * Registers the file operations contract as a vitest suite; `factory` makes fresh file
 * operations and an empty writable directory for every test.
 */
export function describeFileOperationsContract(
  label: string,
  factory: () => FileOperationsFixture | Promise<FileOperationsFixture>,
): void {
  describe(`FileOperations contract: ${label}`, () => {
    const cleanups: Array<() => void | Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });
    async function make(): Promise<FileOperationsFixture> {
      const fixture = await factory();
      if (fixture.cleanup) cleanups.push(fixture.cleanup);
      return fixture;
    }
    it('round-trips awkward text through writeText and readWhole', async () => {
      await checkWriteReadRoundTrip(await make());
    });
    it('reads line ranges, counts lines and detects binary files', async () => {
      await checkReadRanges(await make());
    });
    it('stats files, directories and missing paths', async () => {
      await checkStat(await make());
    });
    it('lists directories and names missing paths and wrong types', async () => {
      await checkListAndErrors(await make());
    });
    it('searches with line numbers, globs, case folding and limits', async () => {
      await checkSearch(await make());
    });
  });
}
