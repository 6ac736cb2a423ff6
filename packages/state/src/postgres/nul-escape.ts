/**
 * PostgreSQL `text` cannot hold U+0000, but a tool's binary output can contain it and must read
 * back identical. Every text value is written through {@link escapeNul} and read through
 * {@link unescapeNul}: U+0001 is the escape character, `\u0001\u0001` stands for U+0001 and
 * `\u0001 ` for U+0000. The space keeps the words on either side of a NUL apart for text search.
 * JSON columns never need it (JSON.stringify writes control characters as `\u00XX`), so the
 * functions are no-ops there.
 */

const NUL = '\u0000';
const ESCAPE = '\u0001';

/** The text with U+0000 and U+0001 escaped; unchanged (same string) when it has neither. */
export function escapeNul(text: string): string {
  if (!text.includes(NUL) && !text.includes(ESCAPE)) return text;
  // Escape the escape character first, so an encoded NUL is never read as anything else.
  return text.replaceAll(ESCAPE, `${ESCAPE}${ESCAPE}`).replaceAll(NUL, `${ESCAPE} `);
}

/** The inverse of {@link escapeNul}. */
export function unescapeNul(text: string): string {
  if (!text.includes(ESCAPE)) return text;
  let out = '';
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    if (char !== ESCAPE) {
      out += char;
      continue;
    }
    at += 1;
    out += text[at] === ' ' ? NUL : ESCAPE;
  }
  return out;
}

/** {@link escapeNul} of a nullable value. */
export function escapeNullable(text: string | null): string | null {
  return text === null ? null : escapeNul(text);
}

/** {@link unescapeNul} of a nullable value. */
export function unescapeNullable(text: string | null): string | null {
  return text === null ? null : unescapeNul(text);
}
