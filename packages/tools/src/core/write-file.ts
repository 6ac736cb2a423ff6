/** `write_file`: writes a whole file, creating parent directories, behind the write guard. */
import { z } from 'zod';
import type { ToolSpec } from '../tool-spec.js';
import { eraseArgs } from './define.js';
import { defaultFileOperations, type FileOperationsProvider, guardWrite } from './file-access.js';

/** Arguments of `write_file`. */
export const WriteFileArgsSchema = z.object({
  path: z
    .string()
    .trim()
    .min(1, 'path must not be empty')
    .describe('File to write (parents are created)'),
  content: z.string().describe('The complete new content of the file'),
});
/** Parsed arguments of the tool (see the schema's field descriptions). */
export type WriteFileArgs = z.infer<typeof WriteFileArgsSchema>;

/** Builds `write_file`. */
export function createWriteFileTool(
  files: FileOperationsProvider = defaultFileOperations,
): ToolSpec {
  return eraseArgs<WriteFileArgs>({
    name: 'write_file',
    toolset: 'file',
    emoji: '✍️',
    pathScoped: (args) => [args.path],
    description:
      'Write a file, replacing its whole content (parent directories are created). For small edits to an existing file prefer patch. Writes to protected locations are refused.',
    parameters: WriteFileArgsSchema,
    handler: async (args, ctx) => {
      guardWrite(ctx, args.path);
      const ops = files(ctx.environment);
      const existed = (await ops.stat(args.path)).exists;
      const { bytes } = await ops.writeText(args.path, args.content);
      const lines =
        args.content === ''
          ? 0
          : args.content.split('\n').length - (args.content.endsWith('\n') ? 1 : 0);
      return {
        text: `${existed ? 'Overwrote' : 'Created'} ${args.path}: ${bytes} bytes, ${lines} lines.`,
        data: { path: args.path, bytes, created: !existed },
      };
    },
  });
}
