/**
 * The `memory` tool: its schema for the model, its argument validation, and its handler. The
 * agent loop owns the tool (it needs the session's store), so this package exports the pieces
 * instead of registering anything.
 */
import type { ToolSchema } from '@hermes/protocol';
import { z } from 'zod';
import { formatMemoryUsage } from './entries.js';
import type { BuiltinMemoryStore } from './memory-store.js';
import type { MemoryOperation } from './operations.js';
import type { MemoryWriteResult } from './write-result.js';

/** The tool's name. */
export const MEMORY_TOOL_NAME = 'memory';

const text = (what: string) => z.string().trim().min(1, `${what} must not be empty`);

/** One operation of a batch. */
export const MemoryToolOperationSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('add'), content: text('content') }),
  z.object({ action: z.literal('replace'), old_text: text('old_text'), content: text('content') }),
  z.object({ action: z.literal('remove'), old_text: text('old_text') }),
]);

/** The `memory` tool's arguments: one operation, or `operations` applied as one atomic batch. */
export const MemoryToolArgsSchema = z
  .object({
    target: z.enum(['memory', 'user']),
    action: z.enum(['add', 'replace', 'remove']).optional(),
    content: z.string().optional(),
    old_text: z.string().optional(),
    operations: z.array(MemoryToolOperationSchema).min(1).max(20).optional(),
  })
  .superRefine((args, ctx) => {
    if ((args.action === undefined) === (args.operations === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['action'],
        message: 'give either "action" (with its fields) or "operations", not both or neither',
      });
    }
  });

/** Validated arguments of the `memory` tool. */
export type MemoryToolArgs = z.infer<typeof MemoryToolArgsSchema>;

/** What the model reads about the tool. */
export const MEMORY_TOOL_DESCRIPTION = [
  'Save durable information to your persistent memory, which is shown to you at the start of every future session.',
  'target "memory" is MEMORY.md, your own notes: facts about the environment, project conventions, tool quirks, lessons learned.',
  'target "user" is USER.md, the user profile: who the user is, preferences, communication style, expectations, work habits.',
  'Actions: add (content), replace (old_text, content), remove (old_text). old_text is a short substring that occurs in exactly one entry.',
  'Pass "operations" instead of "action" to apply several edits as one atomic batch; the size limit is checked on the final result, so you can remove and add in one call.',
  'Both stores have a hard character limit; when full, consolidate (merge with replace, drop stale entries with remove) before adding.',
  "Keep entries short and factual. Do not save task progress or anything you can look up again. Changes are saved at once but appear in the system prompt from the next session on; this tool's result shows the live entries.",
].join(' ');

const operationJsonSchema = {
  type: 'object',
  properties: {
    action: { type: 'string', enum: ['add', 'replace', 'remove'] },
    content: { type: 'string', description: 'The entry text (add, replace).' },
    old_text: {
      type: 'string',
      description: 'Short unique substring of the entry to change (replace, remove).',
    },
  },
  required: ['action'],
} as const;

/** The tool definition the model sees. */
export const memoryToolSchema: ToolSchema = {
  type: 'function',
  function: {
    name: MEMORY_TOOL_NAME,
    description: MEMORY_TOOL_DESCRIPTION,
    parameters: {
      type: 'object',
      properties: {
        target: {
          type: 'string',
          enum: ['memory', 'user'],
          description: 'memory = your notes (MEMORY.md); user = the user profile (USER.md).',
        },
        ...operationJsonSchema.properties,
        operations: {
          type: 'array',
          items: operationJsonSchema,
          description: 'Several operations applied atomically, instead of action.',
        },
      },
      required: ['target'],
    },
  },
};

function toOperations(args: MemoryToolArgs): MemoryOperation[] | string {
  if (args.operations) {
    return args.operations.map((op) =>
      op.action === 'add'
        ? { action: 'add', content: op.content }
        : op.action === 'replace'
          ? { action: 'replace', oldText: op.old_text, content: op.content }
          : { action: 'remove', oldText: op.old_text },
    );
  }
  const parsed = MemoryToolOperationSchema.safeParse({
    action: args.action,
    content: args.content,
    old_text: args.old_text,
  });
  if (!parsed.success) {
    const needs =
      args.action === 'add'
        ? '"content"'
        : args.action === 'remove'
          ? '"old_text"'
          : '"old_text" and "content"';
    return `action "${args.action}" needs ${needs}.`;
  }
  return toOperations({ target: args.target, operations: [parsed.data] });
}

function render(result: MemoryWriteResult): string {
  const usage = result.usage && formatMemoryUsage(result.usage.used, result.usage.limit);
  const body = result.ok
    ? { success: true, target: result.target, message: result.message }
    : { success: false, target: result.target, error: result.message };
  return JSON.stringify({
    ...body,
    ...(usage ? { usage } : {}),
    ...(result.entries ? { entry_count: result.entries.length, entries: result.entries } : {}),
  });
}

function invalid(message: string): string {
  return JSON.stringify({ success: false, error: `Invalid memory arguments: ${message}` });
}

/**
 * Runs one `memory` tool call against `store` and returns the tool result: JSON with `success`,
 * a `message` or `error`, the live `entries` and `usage`. Never throws for bad arguments or an
 * expected failure; the text tells the model what to do next.
 */
export async function handleMemoryTool(args: unknown, store: BuiltinMemoryStore): Promise<string> {
  const parsed = MemoryToolArgsSchema.safeParse(args);
  if (!parsed.success) {
    return invalid(
      parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; '),
    );
  }
  const operations = toOperations(parsed.data);
  if (typeof operations === 'string') return invalid(operations);
  return render(await store.write(parsed.data.target, operations));
}
