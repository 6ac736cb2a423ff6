/**
 * Turns an HTML page into readable markdown (or plain text): drops scripts, styles and page
 * chrome, prefers `<main>` / `<article>`, and keeps headings, links, lists, code and tables.
 */
import { type HTMLElement, type Node, NodeType, parse } from 'node-html-parser';

/** What {@link htmlToReadable} produced. */
export interface ReadablePage {
  readonly title: string;
  readonly content: string;
}

/** Elements that never hold readable content. */
const DROPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'form',
  'button',
  'input',
  'select',
  'textarea',
  'nav',
  'footer',
  'header',
  'aside',
  'head',
  'object',
  'embed',
]);

const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'ul',
  'ol',
  'table',
  'blockquote',
  'pre',
  'figure',
  'figcaption',
  'dl',
  'dt',
  'dd',
  'address',
  'details',
  'summary',
  'hr',
  'body',
  'html',
]);

interface Walk {
  readonly markdown: boolean;
  readonly base: URL | undefined;
  readonly inPre: boolean;
  readonly listDepth: number;
}

function resolveHref(href: string, base: URL | undefined): string {
  try {
    return new URL(href, base).toString();
  } catch {
    return href;
  }
}

function children(node: HTMLElement, walk: Walk): string {
  return node.childNodes.map((child) => render(child, walk)).join('');
}

function listItems(node: HTMLElement, walk: Walk, ordered: boolean): string {
  const inner = { ...walk, listDepth: walk.listDepth + 1 };
  const indent = '  '.repeat(walk.listDepth);
  let n = 0;
  const items = node.children
    .filter((child) => child.tagName === 'LI')
    .map((li) => {
      n += 1;
      const marker = walk.markdown ? (ordered ? `${n}.` : '-') : ordered ? `${n}.` : '•';
      return `${indent}${marker} ${children(li, inner).trim()}`;
    });
  return `\n\n${items.join('\n')}\n\n`;
}

function table(node: HTMLElement, walk: Walk): string {
  const rows = node
    .querySelectorAll('tr')
    .map((tr) =>
      tr.children
        .filter((cell) => cell.tagName === 'TD' || cell.tagName === 'TH')
        .map((cell) => children(cell, walk).replace(/\s+/g, ' ').trim()),
    );
  if (rows.length === 0) return '';
  if (!walk.markdown) return `\n\n${rows.map((r) => r.join('\t')).join('\n')}\n\n`;
  const width = Math.max(...rows.map((r) => r.length));
  const line = (r: string[]): string =>
    `| ${[...r, ...Array(width - r.length).fill('')].join(' | ')} |`;
  const [head, ...body] = rows;
  const rule = `|${' --- |'.repeat(width)}`;
  return `\n\n${[line(head ?? []), rule, ...body.map(line)].join('\n')}\n\n`;
}

function inline(tag: string, node: HTMLElement, walk: Walk, inner: string): string | undefined {
  switch (tag) {
    case 'a': {
      const href = node.getAttribute('href');
      if (!walk.markdown || !href || href.startsWith('javascript:')) return inner;
      return `[${inner.trim()}](${resolveHref(href, walk.base)})`;
    }
    case 'strong':
    case 'b':
      return walk.markdown && inner.trim() ? `**${inner.trim()}**` : inner;
    case 'em':
    case 'i':
      return walk.markdown && inner.trim() ? `_${inner.trim()}_` : inner;
    case 'code':
      return walk.markdown && !walk.inPre ? `\`${inner}\`` : inner;
    case 'img': {
      const alt = node.getAttribute('alt') ?? '';
      const src = node.getAttribute('src');
      if (!walk.markdown || !src) return alt;
      return `![${alt}](${resolveHref(src, walk.base)})`;
    }
    case 'br':
      return '\n';
    default:
      return undefined;
  }
}

function element(node: HTMLElement, walk: Walk): string {
  const tag = node.tagName.toLowerCase();
  if (DROPPED.has(tag) || node.getAttribute('hidden') !== undefined) return '';
  const heading = /^h([1-6])$/.exec(tag);
  if (heading) {
    const text = children(node, walk).replace(/\s+/g, ' ').trim();
    return walk.markdown ? `\n\n${'#'.repeat(Number(heading[1]))} ${text}\n\n` : `\n\n${text}\n\n`;
  }
  if (tag === 'ul' || tag === 'ol') return listItems(node, walk, tag === 'ol');
  if (tag === 'table') return table(node, walk);
  if (tag === 'pre') {
    const code = node.textContent.replace(/\n+$/, '');
    return walk.markdown ? `\n\n\`\`\`\n${code}\n\`\`\`\n\n` : `\n\n${code}\n\n`;
  }
  if (tag === 'hr') return walk.markdown ? '\n\n---\n\n' : '\n\n';
  if (tag === 'blockquote') {
    const text = children(node, walk).trim();
    return walk.markdown ? `\n\n${text.replace(/^/gm, '> ')}\n\n` : `\n\n${text}\n\n`;
  }
  const inner = tag === 'img' || tag === 'br' ? '' : children(node, walk);
  const span = inline(tag, node, walk, inner);
  if (span !== undefined) return span;
  return BLOCKS.has(tag) || tag === 'li' || tag === 'tr' ? `\n\n${inner}\n\n` : inner;
}

function render(node: Node, walk: Walk): string {
  if (node.nodeType === NodeType.TEXT_NODE) {
    return walk.inPre ? node.text : node.text.replace(/\s+/g, ' ');
  }
  if (node.nodeType !== NodeType.ELEMENT_NODE) return '';
  return element(node as HTMLElement, walk);
}

function tidy(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, '').replace(/^ (?=\S)/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Converts `html` to readable text. `baseUrl` resolves relative links and images.
 *
 * @param format - `markdown` keeps headings, links, emphasis, lists, code and tables as markdown;
 *   `text` keeps only the words and line structure.
 */
export function htmlToReadable(
  html: string,
  format: 'markdown' | 'text',
  baseUrl?: string,
): ReadablePage {
  const root = parse(html, { comment: false, blockTextElements: { script: true, style: true } });
  const title = root.querySelector('title')?.textContent.replace(/\s+/g, ' ').trim() ?? '';
  const main =
    root.querySelector('main') ??
    root.querySelector('article') ??
    root.querySelector('body') ??
    root;
  let base: URL | undefined;
  try {
    base = baseUrl === undefined ? undefined : new URL(baseUrl);
  } catch {
    base = undefined;
  }
  const content = tidy(
    render(main, { markdown: format === 'markdown', base, inPre: false, listDepth: 0 }),
  );
  return { title, content };
}
