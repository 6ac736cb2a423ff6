/**
 * What a review kept, told in one line: each successful `memory` / `skill_manage` call is recorded
 * as the tool answers it (both answer JSON with `success`), and summed up for the person.
 */
import type { LoopTool } from '../tools/loop-toolbox.js';
import type { TurnResult } from '../turn/turn-result.js';

/** One write a review made. */
export type KeptItem =
  | {
      readonly kind: 'memory';
      readonly action: 'add' | 'replace' | 'remove';
      readonly count: number;
    }
  | { readonly kind: 'skill'; readonly action: string; readonly name: string };

/** The line when a review kept nothing. */
export const NOTHING_KEPT = 'Nothing new to keep.';

/** Wraps `tool` so each call it answers with `success: true` is added to `kept`. */
export function recordingTool(tool: LoopTool, kept: KeptItem[]): LoopTool {
  return {
    schema: tool.schema,
    run: async (args, ctx) => {
      const answer = await tool.run(args, ctx);
      if (succeeded(answer)) kept.push(...itemsOf(tool.schema.function.name, args));
      return answer;
    },
  };
}

function succeeded(answer: string): boolean {
  try {
    return (JSON.parse(answer) as { success?: unknown }).success === true;
  } catch {
    return false;
  }
}

function itemsOf(tool: string, args: Record<string, unknown>): KeptItem[] {
  if (tool === 'skill_manage') {
    return [{ kind: 'skill', action: String(args.action), name: String(args.name) }];
  }
  const ops = Array.isArray(args.operations) ? (args.operations as { action?: unknown }[]) : [args];
  return ops.map((op) => ({
    kind: 'memory',
    action: op.action === 'replace' || op.action === 'remove' ? op.action : 'add',
    count: 1,
  }));
}

const SKILL_VERB: Record<string, string> = {
  create: 'created',
  delete: 'deleted',
};

/**
 * "Learned: saved 1 memory, created skill 'deploy-checklist'", or {@link NOTHING_KEPT}; a review
 * that failed or was stopped before keeping anything says so (without the error's text, which
 * may quote the model's provider).
 */
export function summarizeReview(kept: readonly KeptItem[], result: TurnResult | undefined): string {
  const parts: string[] = [];
  const memory = (action: string, verb: string) => {
    const n = kept.filter((k) => k.kind === 'memory' && k.action === action).length;
    if (n > 0) parts.push(`${verb} ${n} ${n === 1 ? 'memory' : 'memories'}`);
  };
  memory('add', 'saved');
  memory('replace', 'updated');
  memory('remove', 'removed');
  const skills = new Map<string, string>();
  for (const item of kept) {
    if (item.kind === 'skill' && !skills.has(item.name)) {
      skills.set(item.name, SKILL_VERB[item.action] ?? 'updated');
    }
  }
  for (const [name, verb] of skills) parts.push(`${verb} skill '${name}'`);
  if (parts.length > 0) return `Learned: ${parts.join(', ')}.`;
  if (!result) return 'The review could not run.';
  if (result.interrupted) return 'The review was stopped before it kept anything.';
  if (result.failed) return `The review failed (${result.exitReason}); nothing was kept.`;
  return NOTHING_KEPT;
}
