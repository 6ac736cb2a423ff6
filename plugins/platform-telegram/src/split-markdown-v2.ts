/**
 * Splitting rendered MarkdownV2 so that every message still parses: a cut can fall inside
 * `*bold*` or a code block, or between a `\` and the character it escapes, and Telegram would
 * reject that message's entities (the adapter would then send it as plain text, formatting lost).
 * Each part closes the entities still open at its end, and the next part opens them again.
 */
import { splitText } from '@hermes/plugin-sdk';

/** Room kept in each part for the markers that close and reopen entities. */
const MARKER_ROOM = 16;

/** The entity markers open at the end of `text`, outermost first. */
export function openEntities(text: string): string[] {
  const open: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const top = open.at(-1);
    const inCode = top === '`' || top === '```';
    if (ch === '\\') {
      i++;
    } else if (text.startsWith('```', i) && (top === '```' || !inCode)) {
      if (top === '```') open.pop();
      else open.push('```');
      i += 2;
    } else if (ch === '`' && top !== '```') {
      if (top === '`') open.pop();
      else open.push('`');
    } else if (!inCode && '*_~'.includes(ch)) {
      if (top === ch) open.pop();
      else open.push(ch);
    } else if (!inCode && ch === '[') {
      const link = /^\[[^\]]*\]\((?:[^)\\]|\\.)*\)/.exec(text.slice(i));
      if (link) i += link[0].length - 1;
    }
  }
  return open;
}

/** Splits `text` into parts of at most `maxLength`, each with balanced entities. */
export function splitMarkdownV2(
  text: string,
  maxLength: number,
  measure: (part: string) => number = (part) => part.length,
): string[] {
  const room = Math.max(1, maxLength - MARKER_ROOM);
  const raw = splitText(text, room, measure);
  const out: string[] = [];
  let carry = '';
  let reopen: string[] = [];
  for (const [index, piece] of raw.entries()) {
    let part = carry + piece;
    carry = '';
    const trailing = /\\+$/.exec(part)?.[0].length ?? 0;
    if (trailing % 2 === 1 && index < raw.length - 1) {
      part = part.slice(0, -1);
      carry = '\\';
    }
    const opener = reopen.map((m) => (m === '```' ? '```\n' : m)).join('');
    const body = opener + part;
    const open = openEntities(body);
    const closer = [...open].reverse().join('');
    out.push(body + (open.at(-1) === '```' ? `\n${closer}` : closer));
    reopen = open;
  }
  return out;
}
