/** Shared shapes of the two `search_files` backends (ripgrep and the JS walker). */

/** What to search. `root` is absolute. */
export interface SearchRequest {
  readonly target: 'content' | 'files';
  readonly pattern: string;
  readonly root: string;
  readonly fileGlob?: string;
  readonly context: number;
  readonly outputMode: 'content' | 'files_only' | 'count';
  /** Stop after this many result lines (offset + limit + 1, to know whether more exist). */
  readonly maxResults: number;
  readonly signal: AbortSignal;
}

/** One output line: a match, a context line, a file, or a per-file count. */
export type SearchLine =
  | {
      readonly kind: 'match' | 'context';
      readonly path: string;
      readonly line: number;
      readonly text: string;
    }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'count'; readonly path: string; readonly count: number };

/** Longest line shown in results; longer ones are cut (minified files, data). */
export const MAX_RESULT_LINE_CHARS = 500;

/** Cuts an over-long result line. */
export function clipLine(text: string): string {
  return text.length > MAX_RESULT_LINE_CHARS
    ? `${text.slice(0, MAX_RESULT_LINE_CHARS)}… [line truncated]`
    : text;
}

/** Renders one result line in ripgrep's style (`path:line:text`, context with `-`). */
export function formatLine(line: SearchLine): string {
  switch (line.kind) {
    case 'match':
      return `${line.path}:${line.line}:${clipLine(line.text)}`;
    case 'context':
      return `${line.path}-${line.line}-${clipLine(line.text)}`;
    case 'file':
      return line.path;
    case 'count':
      return `${line.path}:${line.count}`;
  }
}
