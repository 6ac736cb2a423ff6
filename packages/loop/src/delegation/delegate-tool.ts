/**
 * `delegate_task`: hands self-contained tasks to child agents that run the same loop in-process
 * with a narrowed toolset, and returns only their summarized answers — the children's own tool
 * output never enters the parent's context.
 */
import { parseOrThrow } from '@hermes/protocol';
import type { ToolContext } from '@hermes/tools';
import { z } from 'zod';
import type { LoopTool } from '../tools/loop-toolbox.js';
import type { TurnResult } from '../turn/turn-result.js';

const TaskSchema = z.strictObject({
  goal: z.string().trim().min(1, 'goal must describe the task'),
  context: z.string().optional(),
});

/** The arguments of `delegate_task`: one task (`goal`, `context`) or a batch (`tasks`). */
export const DelegateArgsSchema = z
  .strictObject({
    goal: z.string().optional(),
    context: z.string().optional(),
    tasks: z.array(TaskSchema).optional(),
  })
  .refine((a) => (a.tasks?.length ?? 0) > 0 || (a.goal?.trim() ?? '') !== '', {
    message: 'give a goal, or a non-empty tasks list',
  });

/** One delegated task. */
export type DelegatedTask = z.infer<typeof TaskSchema>;

/** Runs one task in a child agent; resolves with the child's turn result. */
export type SpawnChild = (task: DelegatedTask, ctx: ToolContext) => Promise<TurnResult>;

/** Options of {@link createDelegateTool}. */
export interface DelegateToolOptions {
  readonly spawn: SpawnChild;
  readonly maxConcurrent: number;
  readonly maxSummaryChars: number;
}

/** The `delegate_task` loop tool. */
export function createDelegateTool(options: DelegateToolOptions): LoopTool {
  return {
    schema: {
      type: 'function',
      function: {
        name: 'delegate_task',
        description:
          'Hand one or more self-contained tasks to sub-agents that work in parallel with their own ' +
          `tools and return a summary each (at most ${options.maxConcurrent} tasks per call). ` +
          'Give each task everything it needs in goal and context: sub-agents cannot see this ' +
          'conversation or ask the user questions.',
        parameters: z.toJSONSchema(DelegateArgsSchema, { io: 'input' }) as Record<string, unknown>,
      },
    },
    run: (args, ctx) => runDelegation(args, ctx, options),
  };
}

async function runDelegation(
  raw: Record<string, unknown>,
  ctx: ToolContext,
  options: DelegateToolOptions,
): Promise<string> {
  const args = parseOrThrow(
    DelegateArgsSchema,
    raw,
    'delegate_task arguments',
    'Pass goal (and context), or tasks: [{goal, context}].',
  );
  const tasks: DelegatedTask[] = args.tasks?.length
    ? args.tasks
    : [{ goal: args.goal ?? '', ...(args.context ? { context: args.context } : {}) }];
  if (tasks.length > options.maxConcurrent) {
    throw new Error(
      `delegate_task got ${tasks.length} tasks but at most ${options.maxConcurrent} may run at once. Split the work into batches of ${options.maxConcurrent} or fewer.`,
    );
  }
  const results = await Promise.allSettled(tasks.map((task) => options.spawn(task, ctx)));
  return results
    .map((settled, i) =>
      renderChild(i + 1, tasks[i] as DelegatedTask, settled, options.maxSummaryChars),
    )
    .join('\n\n');
}

function renderChild(
  n: number,
  task: DelegatedTask,
  settled: PromiseSettledResult<TurnResult>,
  maxChars: number,
): string {
  const head = `## Task ${n}: ${task.goal.slice(0, 120)}`;
  if (settled.status === 'rejected') {
    const reason =
      settled.reason instanceof Error ? settled.reason.message : String(settled.reason);
    return `${head}\nStatus: failed to start (${reason})`;
  }
  const result = settled.value;
  const answer = childAnswer(result, maxChars);
  return `${head}\nStatus: ${result.exitReason} (${result.apiCalls} model calls)\n${answer}`;
}

/** A child's answer as the parent reads it: its final text (or error), cut at `maxChars`. */
export function childAnswer(result: TurnResult, maxChars: number): string {
  const answer = result.finalResponse || result.error || '(no answer)';
  if (answer.length <= maxChars) return answer;
  return `${answer.slice(0, maxChars)}\n[… summary truncated at ${maxChars} characters]`;
}
