/** Decoding of bash ANSI-C quoting (`$'…'`), so `$'\x72m'` is seen as `rm`. */

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

function isHex(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/** Reads up to `max` characters accepted by `accept`, starting at `from`. */
function readRun(text: string, from: number, max: number, accept: (code: number) => boolean) {
  let end = from;
  while (end < text.length && end - from < max && accept(text.charCodeAt(end))) end += 1;
  return end;
}

function fromCode(code: number): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : '';
}

/**
 * Decodes the body of a `$'…'` string (without the quotes): `\xHH`, `\NNN` (octal), `\uHHHH`,
 * `\UHHHHHHHH`, `\cX` and the single-letter escapes. Unknown escapes keep their backslash, as
 * bash does. Linear in the input.
 */
export function decodeAnsiC(body: string): string {
  let out = '';
  let i = 0;
  while (i < body.length) {
    const slash = body.indexOf('\\', i);
    if (slash < 0 || slash === body.length - 1) {
      out += body.slice(i);
      break;
    }
    out += body.slice(i, slash);
    const kind = body.charAt(slash + 1);
    const simple = SIMPLE_ESCAPES[kind];
    if (simple !== undefined) {
      out += simple;
      i = slash + 2;
    } else if (kind === 'x' || kind === 'u' || kind === 'U') {
      const max = kind === 'x' ? 2 : kind === 'u' ? 4 : 8;
      const end = readRun(body, slash + 2, max, isHex);
      out +=
        end > slash + 2 ? fromCode(Number.parseInt(body.slice(slash + 2, end), 16)) : `\\${kind}`;
      i = end;
    } else if (kind >= '0' && kind <= '7') {
      const end = readRun(body, slash + 1, 3, (c) => c >= 48 && c <= 55);
      out += fromCode(Number.parseInt(body.slice(slash + 1, end), 8));
      i = end;
    } else if (kind === 'c' && slash + 2 < body.length) {
      out += String.fromCharCode(body.charCodeAt(slash + 2) & 0x1f);
      i = slash + 3;
    } else {
      out += `\\${kind}`;
      i = slash + 2;
    }
  }
  return out;
}
