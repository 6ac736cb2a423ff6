/**
 * Quote masking for the position-less rules: text inside quotes is data the shell passes as an
 * argument, so `echo "cat f > /dev/sda"` must not trip the floor. Quote characters stay; inside
 * double quotes `$(…)` and backtick spans stay raw because the shell runs them. Linear: the output
 * is built from slices and blank runs, never character by character.
 */

const SPECIAL = /[\\'"]/g;

/** Returns `text` with quoted content replaced by spaces (same length). */
export function maskQuoted(text: string): string {
  const out: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    SPECIAL.lastIndex = i;
    const found = SPECIAL.exec(text);
    const at = found ? found.index : n;
    out.push(text.slice(i, at));
    if (at >= n) break;
    const ch = text.charAt(at);
    if (ch === '\\') {
      out.push(text.slice(at, at + 2));
      i = at + 2;
    } else if (ch === "'") {
      const end = text.indexOf("'", at + 1);
      const stop = end < 0 ? n : end;
      out.push("'", ' '.repeat(stop - at - 1), end < 0 ? '' : "'");
      i = stop + 1;
    } else {
      out.push('"');
      i = maskDouble(text, at + 1, out);
    }
  }
  return out.join('');
}

const DQ_SPECIAL = /["\\$`]/g;

/** Masks double-quoted content from `from` into `out`; returns the index after it. */
function maskDouble(text: string, from: number, out: string[]): number {
  let i = from;
  const n = text.length;
  while (i < n) {
    DQ_SPECIAL.lastIndex = i;
    const found = DQ_SPECIAL.exec(text);
    const at = found ? found.index : n;
    out.push(' '.repeat(at - i));
    if (at >= n) return n;
    const ch = text.charAt(at);
    if (ch === '"') {
      out.push('"');
      return at + 1;
    }
    if (ch === '\\') {
      out.push(' '.repeat(Math.min(2, n - at)));
      i = at + 2;
    } else if (ch === '$' && text.charAt(at + 1) === '(') {
      const end = matchParen(text, at + 1);
      out.push(text.slice(at, end));
      i = end;
    } else if (ch === '`') {
      const end = text.indexOf('`', at + 1);
      const stop = end < 0 ? n : end + 1;
      out.push(text.slice(at, stop));
      i = stop;
    } else {
      out.push(' ');
      i = at + 1;
    }
  }
  return n;
}

function matchParen(text: string, open: number): number {
  let level = 0;
  for (let i = open; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 40) level += 1;
    else if (code === 41) {
      level -= 1;
      if (level === 0) return i + 1;
    }
  }
  return text.length;
}
