/**
 * The agent's Markdown as Telegram MarkdownV2. Telegram rejects a whole message when one of
 * `_*[]()~`>#+-=|{}.!` is left unescaped outside an entity, so everything that is not
 * recognised formatting is escaped; inside code only `` ` `` and `\` are.
 */

const SPECIAL = /[_*[\]()~`>#+\-=|{}.!\\]/g;
const CODE_SPECIAL = /[`\\]/g;

/** Escapes text to show literally in MarkdownV2. */
export function escapeMarkdownV2(text: string): string {
  return text.replace(SPECIAL, (ch) => `\\${ch}`);
}

function escapeCode(text: string): string {
  return text.replace(CODE_SPECIAL, (ch) => `\\${ch}`);
}

/** Fences, inline code, links, bold, italic, strike — in the order they must be matched. */
const TOKEN =
  /```([\w+-]*)\n?([\s\S]*?)```|`([^`\n]+)`|\[([^\]\n]+)\]\(([^)\s]+)\)|\*\*([^*\n]+)\*\*|__([^_\n]+)__|~~([^~\n]+)~~|(?<![\w*])\*([^*\n]+)\*(?![\w*])|(?<![\w_])_([^_\n]+)_(?![\w_])/g;

function renderLine(line: string): string {
  const heading = /^#{1,6}\s+(.*)$/.exec(line);
  if (heading) return `*${renderInline(heading[1] ?? '')}*`;
  const bullet = /^(\s*)[-*]\s+(.*)$/.exec(line);
  if (bullet) return `${bullet[1]}• ${renderInline(bullet[2] ?? '')}`;
  return renderInline(line);
}

function renderInline(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    out += escapeMarkdownV2(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[3] !== undefined) out += `\`${escapeCode(m[3])}\``;
    else if (m[4] !== undefined && m[5] !== undefined) {
      out += `[${escapeMarkdownV2(m[4])}](${m[5].replace(/[)\\]/g, (ch) => `\\${ch}`)})`;
    } else if (m[6] !== undefined) out += `*${escapeMarkdownV2(m[6])}*`;
    else if (m[7] !== undefined) out += `*${escapeMarkdownV2(m[7])}*`;
    else if (m[8] !== undefined) out += `~${escapeMarkdownV2(m[8])}~`;
    else if (m[9] !== undefined) out += `_${escapeMarkdownV2(m[9])}_`;
    else if (m[10] !== undefined) out += `_${escapeMarkdownV2(m[10])}_`;
  }
  return out + escapeMarkdownV2(text.slice(last));
}

/** Renders Markdown as MarkdownV2: code blocks kept verbatim, the rest escaped line by line. */
export function renderMarkdownV2(markdown: string): string {
  let out = '';
  let last = 0;
  for (const m of markdown.matchAll(/```([\w+-]*)\n?([\s\S]*?)```/g)) {
    out += markdown.slice(last, m.index).split('\n').map(renderLine).join('\n');
    out += `\`\`\`${m[1] ?? ''}\n${escapeCode(m[2] ?? '')}\`\`\``;
    last = m.index + m[0].length;
  }
  return out + markdown.slice(last).split('\n').map(renderLine).join('\n');
}

/** Undoes the escaping for the plain-text retry: what the user reads when entities fail. */
export function stripMarkdownV2(text: string): string {
  return text.replace(/\\([_*[\]()~`>#+\-=|{}.!\\])/g, '$1');
}
