/** `read_file`: paginated text reading with `LINE|CONTENT` numbering and a size cap. */
import { z } from 'zod';
import type { ToolSpec } from '../tool-spec.js';
import { eraseArgs } from './define.js';
import { CoreToolError } from './errors.js';
import { defaultFileOperations, type FileOperationsProvider } from './file-access.js';

/** Most characters one read returns (the note below spells it out: no ICU at run time). */
export const MAX_READ_CHARS = 100_000;
/** Longest line shown whole; longer ones are cut. */
export const MAX_READ_LINE_CHARS = 2_000;
/** Lines one read returns unless `limit` says otherwise. */
export const DEFAULT_READ_LINES = 500;
/** Most lines one read may ask for. */
export const MAX_READ_LINES = 2_000;

/** Arguments of `read_file`. */
export const ReadFileArgsSchema = z.object({
  path: z
    .string()
    .trim()
    .min(1, 'path must not be empty')
    .describe('File to read (relative to the working directory)'),
  offset: z
    .number()
    .int()
    .min(1, 'offset is 1-based: the first line is 1')
    .default(1)
    .describe('First line to read, from 1'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_READ_LINES)
    .default(DEFAULT_READ_LINES)
    .describe('Lines to read (max 2000)'),
});
/** Parsed arguments of the tool (see the schema's field descriptions). */
export type ReadFileArgs = z.infer<typeof ReadFileArgsSchema>;

/** Numbers `lines` from `startLine` as `N|text`, cutting long lines and stopping at the cap. */
export function numberLines(
  lines: readonly string[],
  startLine: number,
): { text: string; shown: number } {
  const width = String(startLine + lines.length - 1).length;
  const out: string[] = [];
  let size = 0;
  for (const [i, raw] of lines.entries()) {
    const body =
      raw.length > MAX_READ_LINE_CHARS
        ? `${raw.slice(0, MAX_READ_LINE_CHARS)}… [line truncated]`
        : raw;
    const line = `${String(startLine + i).padStart(width, ' ')}|${body}`;
    if (size + line.length + 1 > MAX_READ_CHARS && out.length > 0) break;
    out.push(line);
    size += line.length + 1;
  }
  return { text: out.join('\n'), shown: out.length };
}

/** Builds `read_file`. */
export function createReadFileTool(
  files: FileOperationsProvider = defaultFileOperations,
): ToolSpec {
  return eraseArgs<ReadFileArgs>({
    name: 'read_file',
    toolset: 'file',
    emoji: '📖',
    parallelSafe: true,
    pathScoped: (args) => [args.path],
    description:
      'Read a text file with line numbers (LINE|CONTENT, from 1). Reads up to `limit` lines (default 500, max 2000) from `offset`; page through long files with offset. Output is capped at 100,000 characters. Binary files are refused.',
    parameters: ReadFileArgsSchema,
    handler: async (args, ctx) => {
      const read = await files(ctx.environment).readText(args.path, {
        offset: args.offset,
        limit: args.limit,
      });
      if (read.binary) {
        throw new CoreToolError(
          `${args.path} is a binary file (${read.size} bytes); read_file shows text only. Use vision_analyze for images or terminal (file, xxd) to inspect it.`,
        );
      }
      if (read.totalLines === 0) return `${args.path} is empty.`;
      if (read.lines.length === 0) {
        return `${args.path} has ${read.totalLines} lines; offset ${args.offset} is past the end.`;
      }
      const { text, shown } = numberLines(read.lines, read.startLine);
      const last = read.startLine + shown - 1;
      const notes: string[] = [];
      if (shown < read.lines.length) notes.push('output capped at 100,000 characters');
      if (last < read.totalLines) notes.push(`continue with offset=${last + 1}`);
      const footer = `[lines ${read.startLine}-${last} of ${read.totalLines}${notes.length ? `; ${notes.join('; ')}` : ''}]`;
      return {
        text: `${text}\n${footer}`,
        data: {
          path: args.path,
          startLine: read.startLine,
          endLine: last,
          totalLines: read.totalLines,
        },
      };
    },
  });
}
