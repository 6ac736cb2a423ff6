/** Character classes of the shell tokenizer: lookup tables over ASCII, so each test is O(1). */

function table(chars: string): Uint8Array {
  const out = new Uint8Array(128);
  for (const ch of chars) out[ch.charCodeAt(0)] = 1;
  return out;
}

/** Characters that end a word and start an operator. */
export const BREAK = table(' \t\r\n;&|()<>');
/** Characters a word reader must stop at: breaks, quotes, escapes, `$` and backticks. */
export const WORD_SPECIAL = table(' \t\r\n;&|()<>\\\'"`$');
/** Characters that mean something inside double quotes. */
export const DQ_SPECIAL = table('"\\$`');

/** Whether `code` is in `set` (non-ASCII never is). */
export function special(set: Uint8Array, code: number): boolean {
  return code < 128 && set[code] === 1;
}

/** `[A-Za-z_]`: a character that may start a shell variable name. */
export function isNameStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/** `[A-Za-z0-9_]`: a character of a shell variable name. */
export function isNameChar(code: number): boolean {
  return isNameStart(code) || (code >= 48 && code <= 57);
}
