/** `todo`: the agent's per-session task list, with four statuses and merge updates. */
import { z } from 'zod';
import type { ToolSpec } from '../tool-spec.js';
import { eraseArgs } from './define.js';
import { CoreToolError } from './errors.js';

/** The four states of a task. */
export const TodoStatusSchema = z.enum(['pending', 'in_progress', 'completed', 'cancelled']);
/** A task's state. */
export type TodoStatus = z.infer<typeof TodoStatusSchema>;

/** One task in the list. */
export interface TodoItem {
  readonly id: string;
  readonly content: string;
  readonly status: TodoStatus;
}

/** Most tasks one list holds, so a runaway model cannot grow it without bound. */
export const MAX_TODO_ITEMS = 100;

const TodoInputSchema = z.object({
  id: z.string().trim().min(1, 'each todo needs a non-empty id').describe('Stable task id'),
  content: z.string().trim().min(1, 'content must not be empty').optional().describe('Task text'),
  status: TodoStatusSchema.optional(),
});

/** Arguments of `todo`. */
export const TodoArgsSchema = z.object({
  todos: z
    .array(TodoInputSchema)
    .max(MAX_TODO_ITEMS)
    .optional()
    .describe('Tasks to write. Omit to read the current list.'),
  merge: z
    .boolean()
    .default(false)
    .describe('true: update tasks by id and append new ones; false: replace the whole list'),
});
/** Parsed arguments of the tool (see the schema's field descriptions). */
export type TodoArgs = z.infer<typeof TodoArgsSchema>;

/** Per-session task lists, in memory. One store serves every session of a process. */
export class TodoStore {
  private readonly lists = new Map<string, TodoItem[]>();

  /** The session's list (a copy). */
  get(sessionId: string): TodoItem[] {
    return [...(this.lists.get(sessionId) ?? [])];
  }

  /** Replaces the session's list. */
  set(sessionId: string, items: readonly TodoItem[]): void {
    this.lists.set(sessionId, [...items]);
  }

  /** Forgets a session's list. */
  clear(sessionId: string): void {
    this.lists.delete(sessionId);
  }
}

type TodoInput = z.infer<typeof TodoInputSchema>;

function complete(input: TodoInput, base?: TodoItem): TodoItem {
  const content = input.content ?? base?.content;
  if (content === undefined) {
    throw new CoreToolError(`todo "${input.id}" is new, so it needs content.`);
  }
  return { id: input.id, content, status: input.status ?? base?.status ?? 'pending' };
}

/** Applies `inputs` to `current`: merge updates by id and appends, replace builds a new list. */
export function applyTodos(
  current: readonly TodoItem[],
  inputs: readonly TodoInput[],
  merge: boolean,
): TodoItem[] {
  const ids = new Set<string>();
  for (const input of inputs) {
    if (ids.has(input.id)) throw new CoreToolError(`todo id "${input.id}" appears twice.`);
    ids.add(input.id);
  }
  if (!merge) return inputs.map((input) => complete(input));
  const next = [...current];
  for (const input of inputs) {
    const at = next.findIndex((item) => item.id === input.id);
    if (at >= 0) next[at] = complete(input, next[at]);
    else next.push(complete(input));
  }
  if (next.length > MAX_TODO_ITEMS) {
    throw new CoreToolError(
      `A todo list holds at most ${MAX_TODO_ITEMS} tasks; remove finished ones.`,
    );
  }
  return next;
}

function render(items: readonly TodoItem[]): string {
  const summary = { total: items.length, pending: 0, in_progress: 0, completed: 0, cancelled: 0 };
  for (const item of items) summary[item.status] += 1;
  return JSON.stringify({ todos: items, summary });
}

/** Builds the `todo` tool over `store` (one list per session id). */
export function createTodoTool(store: TodoStore = new TodoStore()): ToolSpec {
  return eraseArgs<TodoArgs>({
    name: 'todo',
    toolset: 'todo',
    emoji: '📋',
    description:
      'Manage your task list for this session. Call with no todos to read it; pass todos to write it (merge=true updates by id and appends; merge=false replaces the list). Statuses: pending, in_progress, completed, cancelled. Keep one task in_progress at a time.',
    parameters: TodoArgsSchema,
    handler: (args, ctx) => {
      if (args.todos === undefined) return render(store.get(ctx.sessionId));
      const next = applyTodos(store.get(ctx.sessionId), args.todos, args.merge);
      store.set(ctx.sessionId, next);
      return render(next);
    },
  });
}
