/**
 * The agent's Markdown as Slack mrkdwn: `*bold*`, `_italic_`, `~strike~`, `<url|text>` links,
 * headings as bold lines, bullets as `•`, and `&`, `<`, `>` escaped as Slack requires. Code
 * (fenced and inline) keeps its text, escaped only.
 */

const FENCE = /```[^\n`]*\n?([\s\S]*?)```/g;
/** Stands for `*` of bold while single `*` italics are rewritten (never in user text). */
const BOLD = '\u0001';

/** Escapes the three characters Slack reserves for its own markup. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Renders Markdown as mrkdwn (see the module comment). */
export function renderMrkdwn(markdown: string): string {
  let out = '';
  let last = 0;
  for (const match of markdown.matchAll(FENCE)) {
    out += renderProse(markdown.slice(last, match.index));
    out += `\`\`\`${escapeMrkdwn(match[1] ?? '')}\`\`\``;
    last = match.index + match[0].length;
  }
  return out + renderProse(markdown.slice(last));
}

/** Prose between code fences: inline code is kept, the rest rewritten. */
function renderProse(text: string): string {
  return text
    .split(/(`[^`\n]+`)/)
    .map((part, index) => (index % 2 === 1 ? escapeMrkdwn(part) : renderInline(part)))
    .join('');
}

function renderInline(text: string): string {
  let out = escapeMrkdwn(text);
  out = out.replace(/^#{1,6}[ \t]+(.+?)[ \t]*#*$/gm, `${BOLD}$1${BOLD}`);
  out = out.replace(/^([ \t]*)[-*+][ \t]+/gm, '$1• ');
  out = out.replace(/\[([^\]\n]+)\]\(([^)\s]+)\)/g, '<$2|$1>');
  out = out.replace(/\*\*(?=\S)([^*\n]*?\S)\*\*/g, `${BOLD}$1${BOLD}`);
  out = out.replace(/__(?=\S)([^_\n]*?\S)__/g, `${BOLD}$1${BOLD}`);
  out = out.replace(/(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])/g, '$1_$2_');
  out = out.replace(/~~(?=\S)([^~\n]*?\S)~~/g, '~$1~');
  return out.replaceAll(BOLD, '*');
}
