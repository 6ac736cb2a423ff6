/** `web_extract`: fetches pages and returns their readable content as markdown or text. */
import { z } from 'zod';
import type { ToolSpec } from '../tool-spec.js';
import { capText, eraseArgs } from './define.js';
import { CoreToolError } from './errors.js';
import { htmlToReadable } from './html-to-markdown.js';
import { type FetchedPage, type FetchLimits, fetchPage } from './web-fetch.js';

/** Settings of `web_extract`. All optional. */
export interface WebExtractOptions {
  /** Body bytes read per page; the rest is dropped. Default 5 MiB. */
  readonly maxBytes?: number;
  /** Characters of content returned per page. Default 50,000. */
  readonly maxChars?: number;
  /** Per-page wall-clock limit. Default 30 s. */
  readonly timeoutMs?: number;
  /** Redirects followed. Default 5. */
  readonly maxRedirects?: number;
  /** Allow loopback and private-network hosts. Default false (tests and intranets turn it on). */
  readonly allowPrivateNetwork?: boolean;
  /** The User-Agent header. */
  readonly userAgent?: string;
  /**
   * Condenses a page longer than `condenseAboveChars` (an auxiliary model's summary keeping the
   * facts, numbers, code and links). When it fails, the page is returned as read, capped.
   */
  readonly condense?: PageCondenser;
  /** Pages longer than this are condensed, when `condense` is set. Default 15,000 characters. */
  readonly condenseAboveChars?: number;
}

/** Condenses one page's readable content; resolves the shorter text. */
export type PageCondenser = (page: {
  readonly url: string;
  readonly title: string;
  readonly content: string;
  readonly signal: AbortSignal;
}) => Promise<string>;

/** Pages longer than this are condensed by default (when a condenser is configured). */
export const DEFAULT_CONDENSE_ABOVE_CHARS = 15_000;

/** Most URLs per call. */
export const MAX_EXTRACT_URLS = 5;

/** Arguments of `web_extract`. */
export const WebExtractArgsSchema = z.object({
  urls: z
    .array(z.string().trim().min(1, 'urls must not contain empty strings'))
    .min(1, 'give at least one URL')
    .max(MAX_EXTRACT_URLS, `give at most ${MAX_EXTRACT_URLS} URLs per call`)
    .describe('Absolute http(s) URLs to read'),
  format: z.enum(['markdown', 'text']).default('markdown').describe('Output format'),
});
/** Parsed arguments of the tool (see the schema's field descriptions). */
export type WebExtractArgs = z.infer<typeof WebExtractArgsSchema>;

const TEXTUAL =
  /^(text\/|application\/(json|xml|javascript|x-javascript|ld\+json|rss\+xml|atom\+xml)|[^;]*\+(json|xml))/i;

function charsetOf(contentType: string): string {
  return /charset=["']?([\w-]+)/i.exec(contentType)?.[1] ?? 'utf-8';
}

function decode(page: FetchedPage): string {
  try {
    return new TextDecoder(charsetOf(page.contentType)).decode(page.body);
  } catch {
    return new TextDecoder('utf-8').decode(page.body);
  }
}

/** Turns a fetched body into `{title, content}` by its content type (sniffing when absent). */
export function readableBody(
  page: FetchedPage,
  format: 'markdown' | 'text',
): { title: string; content: string } {
  const type = page.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  const head = decode({ ...page, body: page.body.subarray(0, 512) })
    .trimStart()
    .toLowerCase();
  const looksHtml = head.startsWith('<!doctype html') || head.startsWith('<html');
  if (type === 'text/html' || type === 'application/xhtml+xml' || (type === '' && looksHtml)) {
    return htmlToReadable(decode(page), format, page.finalUrl);
  }
  const binary = page.body.subarray(0, 8192).includes(0);
  if (TEXTUAL.test(type) || (type === '' && !binary)) {
    const text = decode(page);
    if (/json/.test(type)) {
      try {
        return { title: '', content: JSON.stringify(JSON.parse(text), null, 2) };
      } catch {
        return { title: '', content: text };
      }
    }
    return { title: '', content: text };
  }
  throw new CoreToolError(
    `Unsupported content type "${type || 'binary'}": web_extract reads HTML and text. Use vision_analyze for images.`,
  );
}

function limitsOf(options: WebExtractOptions): FetchLimits {
  return {
    maxBytes: options.maxBytes ?? 5 * 1024 * 1024,
    timeoutMs: options.timeoutMs ?? 30_000,
    maxRedirects: options.maxRedirects ?? 5,
    allowPrivateNetwork: options.allowPrivateNetwork ?? false,
    userAgent: options.userAgent ?? 'HermesAgent/1.0 (+web_extract)',
  };
}

async function extractOne(
  url: string,
  format: 'markdown' | 'text',
  options: WebExtractOptions,
  signal: AbortSignal,
) {
  try {
    const page = await fetchPage(url, limitsOf(options), signal);
    const { title, content } = readableBody(page, format);
    const maxChars = options.maxChars ?? 50_000;
    const condensed = await condensePage(url, title, content, options, signal);
    const text = condensed?.text ?? content;
    return {
      url,
      ...(page.finalUrl === url ? {} : { final_url: page.finalUrl }),
      title,
      content: capText(text, maxChars),
      ...(condensed?.text === undefined ? {} : { condensed_from_chars: content.length }),
      ...(condensed?.error === undefined ? {} : { condense_error: condensed.error }),
      ...(page.truncated || text.length > maxChars ? { truncated: true } : {}),
    };
  } catch (error) {
    if (signal.aborted) throw error;
    return { url, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The page condensed when it is long and a condenser is set; the error when that failed. */
async function condensePage(
  url: string,
  title: string,
  content: string,
  options: WebExtractOptions,
  signal: AbortSignal,
): Promise<{ text?: string; error?: string } | undefined> {
  const limit = options.condenseAboveChars ?? DEFAULT_CONDENSE_ABOVE_CHARS;
  if (!options.condense || content.length <= limit) return undefined;
  try {
    const text = (await options.condense({ url, title, content, signal })).trim();
    return text ? { text } : { error: 'the summary was empty; the page is shown as read' };
  } catch (error) {
    if (signal.aborted) throw error;
    const why = error instanceof Error ? error.message : String(error);
    return { error: `could not condense (${why.slice(0, 200)}); the page is shown as read` };
  }
}

/** Builds the `web_extract` tool. */
export function createWebExtractTool(options: WebExtractOptions = {}): ToolSpec {
  return eraseArgs<WebExtractArgs>({
    name: 'web_extract',
    toolset: 'web',
    emoji: '📄',
    parallelSafe: true,
    description:
      'Fetch up to 5 web pages and return their readable content (markdown by default): the main text with headings, links, lists, code and tables, without scripts and page chrome. Per-URL failures are reported inline.',
    parameters: WebExtractArgsSchema,
    handler: async (args, ctx) => {
      ctx.onActivity?.(`extracting ${args.urls.length} page(s)`);
      const results = await Promise.all(
        args.urls.map((url) => extractOne(url, args.format, options, ctx.signal)),
      );
      return JSON.stringify({ results }, null, 1);
    },
  });
}
