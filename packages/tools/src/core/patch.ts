/**
 * `patch`: targeted edits. Mode `replace` finds `old_string` with the fuzzy matcher and swaps in
 * `new_string`; mode `patch` applies a unified diff. Both return the unified diff of what
 * changed, and both pass the write guard for every file they touch.
 */
import { z } from 'zod';
import type { ToolSpec } from '../tool-spec.js';
import { eraseArgs } from './define.js';
import { CoreToolError } from './errors.js';
import { defaultFileOperations, type FileOperationsProvider, guardWrite } from './file-access.js';
import { fuzzyReplace } from './fuzzy-match.js';
import { diffPaths, type FileChange, planUnifiedDiff, renderDiff } from './unified-diff.js';

/** Arguments of `patch`. */
export const PatchArgsSchema = z.object({
  mode: z
    .enum(['replace', 'patch'])
    .default('replace')
    .describe('replace: old_string → new_string; patch: apply a unified diff'),
  path: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe('File to edit (replace mode; optional in patch mode)'),
  old_string: z
    .string()
    .optional()
    .describe('Text to find (replace mode); include enough context to be unique'),
  new_string: z.string().optional().describe('Replacement text (replace mode)'),
  replace_all: z
    .boolean()
    .default(false)
    .describe('Replace every match instead of requiring a unique one'),
  patch: z
    .string()
    .optional()
    .describe('Unified diff (patch mode), with ---/+++ headers and @@ hunks'),
});
/** Parsed arguments of the tool (see the schema's field descriptions). */
export type PatchArgs = z.infer<typeof PatchArgsSchema>;

function need(value: string | undefined, name: string, mode: string): string {
  if (value === undefined) throw new CoreToolError(`patch mode "${mode}" needs ${name}.`);
  return value;
}

/** Builds `patch`. */
export function createPatchTool(files: FileOperationsProvider = defaultFileOperations): ToolSpec {
  return eraseArgs<PatchArgs>({
    name: 'patch',
    toolset: 'file',
    emoji: '🩹',
    pathScoped: (args) => {
      const named = args.path === undefined ? [] : [args.path];
      return typeof args.patch === 'string'
        ? [...new Set([...named, ...diffPaths(args.patch)])]
        : named;
    },
    description:
      'Edit files. mode=replace (default): find old_string in path and replace it with new_string; matching tolerates indentation, whitespace, escaping and smart-quote differences, but must be unique unless replace_all=true. mode=patch: apply a unified diff (may touch several files or create new ones). Returns the resulting unified diff.',
    parameters: PatchArgsSchema,
    handler: async (args, ctx) => {
      const ops = files(ctx.environment);
      let changes: FileChange[];
      let how: string;
      if (args.mode === 'replace') {
        const path = need(args.path, 'path', 'replace');
        const oldString = need(args.old_string, 'old_string', 'replace');
        const newString = need(args.new_string, 'new_string', 'replace');
        const before = await ops.readWhole(path);
        const result = fuzzyReplace(before, oldString, newString, { replaceAll: args.replace_all });
        changes = [{ path, before, after: result.content, created: false }];
        how = `${result.lines.length} replacement(s), ${result.strategy} match, at line(s) ${result.lines.join(', ')}`;
      } else {
        changes = await planUnifiedDiff(
          need(args.patch, 'patch (a unified diff)', 'patch'),
          ops,
          args.path,
        );
        how = `diff applied to ${changes.length} file(s)`;
      }
      for (const change of changes) guardWrite(ctx, change.path);
      for (const change of changes) await ops.writeText(change.path, change.after);
      const diff = changes.map((c) => renderDiff(c.path, c.before, c.after)).join('');
      return {
        text: `Patched ${changes.map((c) => c.path).join(', ')} (${how}).\n${diff}`,
        data: { files: changes.map((c) => c.path) },
      };
    },
  });
}
