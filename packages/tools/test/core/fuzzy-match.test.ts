import { isHermesError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { findMatches, fuzzyReplace } from '../../src/core/fuzzy-match.js';

function failure(run: () => unknown): { kind: unknown; message: string } {
  try {
    run();
  } catch (error) {
    if (isHermesError(error)) return { kind: error.details.kind, message: error.message };
    throw error;
  }
  throw new Error('expected a failure');
}

describe('fuzzyReplace strategies', () => {
  it('exact: replaces a unique substring', () => {
    const out = fuzzyReplace('let a = 1;\nlet b = 2;\n', 'b = 2', 'b = 3');
    expect(out).toMatchObject({
      content: 'let a = 1;\nlet b = 3;\n',
      strategy: 'exact',
      lines: [2],
    });
  });

  it('line-trimmed: matches lines whose surrounding spaces differ and keeps file indentation', () => {
    const file = 'function f() {\n    if (x) {\n        go();\n    }\n}\n';
    const out = fuzzyReplace(file, 'if (x) {\n    go();\n}', 'if (y) {\n    stop();\n}');
    expect(out.strategy).toBe('line-trimmed');
    expect(out.content).toBe('function f() {\n    if (y) {\n        stop();\n    }\n}\n');
  });

  it('whitespace-normalized: tolerates different inner spacing and CRLF', () => {
    const out = fuzzyReplace('x =  foo(a,\tb);\r\nnext\r\n', 'foo(a, b);\nnext', 'bar();\nnext');
    expect(out.strategy).toBe('whitespace-normalized');
    expect(out.content).toBe('x =  bar();\nnext\r\n');
  });

  it('indentation-flexible: ignores blank-line differences and re-indents', () => {
    const file = 'class A {\n  one() {}\n\n  two() {}\n}\n';
    const out = fuzzyReplace(file, 'one() {}\ntwo() {}', 'one() { return 1; }\ntwo() {}');
    expect(out.strategy).toBe('indentation-flexible');
    expect(out.content).toBe('class A {\n  one() { return 1; }\n  two() {}\n}\n');
  });

  it('escape-normalized: unescapes a JSON-escaped old_string and new_string', () => {
    const out = fuzzyReplace('say("hi")\nend\n', 'say(\\"hi\\")\\nend', 'say(\\"bye\\")\\nend');
    expect(out.strategy).toBe('escape-normalized');
    expect(out.content).toBe('say("bye")\nend\n');
  });

  it('unicode-normalized: matches smart quotes, dashes and ellipses', () => {
    const out = fuzzyReplace(
      'title = “Hello — world…”\n',
      'title = "Hello - world..."',
      'title = "Hi"',
    );
    expect(out.strategy).toBe('unicode-normalized');
    expect(out.content).toBe('title = "Hi"\n');
  });

  it('block-anchor: first and last lines anchor a slightly different middle', () => {
    const file =
      'start()\nfunction go() {\n  const value = compute(1);\n  return value;\n}\nend()\n';
    const old = 'function go() {\n  const value = compute(2);\n  return value;\n}';
    const out = fuzzyReplace(file, old, 'function go() {\n  return 0;\n}');
    expect(out.strategy).toBe('block-anchor');
    expect(out.content).toBe('start()\nfunction go() {\n  return 0;\n}\nend()\n');
  });

  it('block-anchor rejects a middle that is unrelated', () => {
    const file = 'function go() {\n  completely different code here\n}\n';
    const old = 'function go() {\n  zzzz qqqq xxxx\n}';
    expect(findMatches(file, old)).toBeUndefined();
  });
});

describe('fuzzyReplace errors', () => {
  it('refuses an ambiguous match and lists candidate lines', () => {
    const { kind, message } = failure(() => fuzzyReplace('a = 1\nb\na = 1\n', 'a = 1', 'a = 2'));
    expect(kind).toBe('ambiguous');
    expect(message).toContain('line 1');
    expect(message).toContain('line 3');
    expect(message).toContain('replace_all');
  });

  it('replace_all changes every match', () => {
    const out = fuzzyReplace('a = 1\nb\na = 1\n', 'a = 1', 'a = 2', { replaceAll: true });
    expect(out.content).toBe('a = 2\nb\na = 2\n');
    expect(out.lines).toEqual([1, 3]);
  });

  it('refuses identical old and new strings', () => {
    expect(failure(() => fuzzyReplace('abc', 'b', 'b')).kind).toBe('identical');
  });

  it('refuses an empty old_string', () => {
    expect(failure(() => fuzzyReplace('abc', '', 'x')).kind).toBe('empty');
  });

  it('reports not_found when nothing matches', () => {
    const { kind, message } = failure(() => fuzzyReplace('abc\n', 'xyz', 'q'));
    expect(kind).toBe('not_found');
    expect(message).toContain('read_file');
  });

  it('findMatches reports strategy and 1-based lines', () => {
    expect(findMatches('x\ny\nx\n', 'x')).toEqual({
      strategy: 'exact',
      matches: [
        { start: 0, end: 1, line: 1 },
        { start: 4, end: 5, line: 3 },
      ],
    });
  });
});
