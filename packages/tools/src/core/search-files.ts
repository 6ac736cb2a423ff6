/**
 * `search_files`: regex search of file contents, or file-name glob search, with paging. Uses
 * ripgrep through the session environment when it has `rg`, else a JS walker on this machine
 * (local environment only) that honours `.gitignore`.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { ExecutionEnvironment } from '@hermes/environments';
import { z } from 'zod';
import type { ToolSpec } from '../tool-spec.js';
import { eraseArgs } from './define.js';
import { CoreToolError } from './errors.js';
import { parseRipgrepOutput, ripgrepCommand } from './search-rg.js';
import { formatLine, type SearchLine, type SearchRequest } from './search-types.js';
import { walkerSearch } from './search-walker.js';

/** Which search engine to use: `auto` prefers ripgrep, then the walker. */
export type SearchBackendChoice = 'auto' | 'ripgrep' | 'walker';

/** Settings of `search_files`. */
export interface SearchFilesOptions {
  readonly backend?: SearchBackendChoice;
}

/** Arguments of `search_files`. */
export const SearchFilesArgsSchema = z.object({
  pattern: z
    .string()
    .min(1, 'pattern must not be empty')
    .describe('Regex (target=content) or file-name glob (target=files)'),
  target: z
    .enum(['content', 'files'])
    .default('content')
    .describe('Search file contents or file names'),
  path: z
    .string()
    .trim()
    .min(1)
    .default('.')
    .describe('Directory or file to search (default: current directory)'),
  file_glob: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe('Only search files matching this glob, e.g. *.ts'),
  limit: z.number().int().min(1).max(500).default(50).describe('Result lines to return (max 500)'),
  offset: z.number().int().min(0).default(0).describe('Result lines to skip, for paging'),
  output_mode: z
    .enum(['content', 'files_only', 'count'])
    .default('content')
    .describe('Matching lines, file names, or per-file counts'),
  context: z
    .number()
    .int()
    .min(0)
    .max(10)
    .default(0)
    .describe('Lines of context around each match'),
});
/** Parsed arguments of the tool (see the schema's field descriptions). */
export type SearchFilesArgs = z.infer<typeof SearchFilesArgsSchema>;

const rgPresence = new WeakMap<ExecutionEnvironment, Promise<boolean>>();

/** Whether `rg` is on the environment's PATH (asked once per environment). */
function hasRipgrep(env: ExecutionEnvironment, signal: AbortSignal): Promise<boolean> {
  let known = rgPresence.get(env);
  if (!known) {
    known = env
      .execute('command -v rg >/dev/null 2>&1 && echo __rg_yes__', { signal, timeoutMs: 10_000 })
      .then((r) => r.output.includes('__rg_yes__'))
      .catch(() => false);
    rgPresence.set(env, known);
  }
  return known;
}

async function environmentCwd(env: ExecutionEnvironment, signal: AbortSignal): Promise<string> {
  const cwd = (env as { cwd?: unknown }).cwd;
  if (typeof cwd === 'string') return cwd;
  return (await env.execute('pwd', { signal, timeoutMs: 10_000 })).cwd;
}

async function runSearch(
  args: SearchFilesArgs,
  request: Omit<SearchRequest, 'root'>,
  env: ExecutionEnvironment,
  choice: SearchBackendChoice,
): Promise<SearchLine[]> {
  const useRg =
    choice === 'ripgrep' || (choice === 'auto' && (await hasRipgrep(env, request.signal)));
  if (useRg) {
    const result = await env.execute(ripgrepCommand({ ...request, root: args.path }, args.path), {
      signal: request.signal,
      timeoutMs: 60_000,
    });
    return parseRipgrepOutput(result.output, { ...request, root: args.path });
  }
  if (env.name !== 'local') {
    throw new CoreToolError(
      `search_files needs ripgrep (rg) in the "${env.name}" environment; install it or use terminal with grep/find.`,
    );
  }
  const cwd = await environmentCwd(env, request.signal);
  const expanded =
    args.path === '~' || args.path.startsWith('~/')
      ? join(homedir(), args.path.slice(1))
      : args.path;
  const root = isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
  const display = (rel: string): string =>
    rel === '' ? args.path : args.path === '.' ? rel : `${args.path.replace(/\/+$/, '')}/${rel}`;
  return walkerSearch({ ...request, root }, display);
}

function render(args: SearchFilesArgs, lines: readonly SearchLine[]): string {
  const page = lines.slice(args.offset, args.offset + args.limit);
  if (page.length === 0) {
    if (args.offset > 0 && lines.length > 0) return `No results past offset ${args.offset}.`;
    return args.target === 'files'
      ? `No files matching "${args.pattern}" under ${args.path}.`
      : `No matches for /${args.pattern}/ under ${args.path}.`;
  }
  const more = lines.length > args.offset + args.limit;
  const footer = `[results ${args.offset + 1}-${args.offset + page.length}${more ? `; more available: use offset=${args.offset + page.length}` : ''}]`;
  return `${page.map(formatLine).join('\n')}\n${footer}`;
}

/** Builds the `search_files` tool. */
export function createSearchFilesTool(options: SearchFilesOptions = {}): ToolSpec {
  return eraseArgs<SearchFilesArgs>({
    name: 'search_files',
    toolset: 'file',
    emoji: '🔎',
    parallelSafe: true,
    description:
      'Search files. target=content: regex search of file contents (ripgrep syntax), output as path:line:text, optionally with context lines, only file names (files_only) or per-file counts. target=files: find files whose names match a glob such as *.test.ts. Skips hidden and .gitignore-d files. Paged with limit/offset.',
    parameters: SearchFilesArgsSchema,
    handler: async (args, ctx) => {
      const request = {
        target: args.target,
        pattern: args.pattern,
        context: args.context,
        outputMode: args.output_mode,
        maxResults: args.offset + args.limit + 1,
        signal: ctx.signal,
        ...(args.file_glob === undefined ? {} : { fileGlob: args.file_glob }),
      };
      const lines = await runSearch(args, request, ctx.environment, options.backend ?? 'auto');
      return render(args, lines);
    },
  });
}
