import { describe, expect, it } from 'vitest';
import { splitText } from '../src/index.js';

const squash = (value: string) => value.replace(/\s+/g, '');

describe('splitText', () => {
  it('returns text that fits unchanged, and nothing for blank text', () => {
    expect(splitText('hello\n', 10)).toEqual(['hello\n']);
    expect(splitText('  \n\n ', 10)).toEqual([]);
    expect(splitText('', 10)).toEqual([]);
  });

  it('prefers a paragraph break, dropping the blank lines', () => {
    const text = `${'a'.repeat(30)}\nline two\n\n${'b'.repeat(20)}`;
    expect(splitText(text, 45)).toEqual([`${'a'.repeat(30)}\nline two`, 'b'.repeat(20)]);
  });

  it('falls back to a line break, then a space', () => {
    expect(splitText('first line here\nsecond line', 20)).toEqual([
      'first line here',
      'second line',
    ]);
    expect(splitText('alpha beta gamma delta', 12)).toEqual(['alpha beta', 'gamma delta']);
  });

  it('ignores a break so early that it would waste most of the room', () => {
    const text = `ab\n\n${'word '.repeat(10)}`;
    const chunks = splitText(text, 20);
    expect(chunks[0]?.startsWith('ab\n\nword')).toBe(true);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(20);
  });

  it('cuts an unbroken run at the limit, keeping indentation of later lines', () => {
    const chunks = splitText(`${'x'.repeat(25)}\n    code()`, 10);
    expect(chunks).toEqual(['x'.repeat(10), 'x'.repeat(10), 'xxxxx', '    code()']);
  });

  it('never splits a surrogate pair', () => {
    const chunks = splitText('🙂🙂🙂🙂🙂', 3);
    expect(chunks).toEqual(['🙂', '🙂', '🙂', '🙂', '🙂']);
  });

  it('emits a lone character when the limit is smaller than one', () => {
    expect(splitText('🙂a', 1)).toEqual(['🙂', 'a']);
  });

  it('measures with the given function', () => {
    const bytes = (value: string) => Buffer.byteLength(value, 'utf8');
    const text = 'é'.repeat(30);
    const chunks = splitText(text, 20, bytes);
    for (const chunk of chunks) expect(bytes(chunk)).toBeLessThanOrEqual(20);
    expect(chunks.join('')).toBe(text);
  });

  it('keeps every limit and loses only whitespace on a large mixed text', () => {
    const text = Array.from({ length: 200 }, (_, n) =>
      n % 9 === 0 ? 'z'.repeat(700) : `para ${n}\n- line a\n- line b 🙂 with words`,
    ).join('\n\n');
    for (const limit of [1, 2, 7, 64, 500, 4096]) {
      const chunks = splitText(text, limit);
      for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(Math.max(limit, 2));
      expect(squash(chunks.join(''))).toBe(squash(text));
    }
  });

  it('rejects a limit that is not positive', () => {
    expect(() => splitText('x', 0)).toThrow(RangeError);
    expect(() => splitText('x', Number.NaN)).toThrow(/positive number/);
  });
});
