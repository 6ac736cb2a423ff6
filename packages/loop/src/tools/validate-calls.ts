/**
 * Checks the tool calls of a response before anything runs: arguments must be JSON objects, names
 * must exist (close misspellings are repaired), identical duplicates are dropped, and the number
 * of `delegate_task` calls per response is capped. Problems become error results the model reads,
 * so every call still gets exactly one result.
 */
import type { ToolCall } from '@hermes/protocol';

/** A call ready to run. */
export interface ValidCall {
  readonly call: ToolCall;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/** A call answered with an error instead of running. */
export interface RejectedCall {
  readonly call: ToolCall;
  readonly kind: 'invalid_json' | 'unknown_tool' | 'over_cap';
  readonly message: string;
}

/** The calls split into those to run and those to answer with an error. */
export interface CallValidation {
  readonly valid: readonly ValidCall[];
  readonly rejected: readonly RejectedCall[];
  /** Tool calls kept on the assistant message (identical duplicates removed). */
  readonly kept: readonly ToolCall[];
}

/** Options of {@link validateToolCalls}. */
export interface ValidateOptions {
  readonly names: readonly string[];
  /** Most `delegate_task` calls one response may make. */
  readonly maxDelegateCalls: number;
}

/** Validates the calls of one assistant message. */
export function validateToolCalls(
  calls: readonly ToolCall[],
  options: ValidateOptions,
): CallValidation {
  const known = new Set(options.names);
  const seen = new Set<string>();
  const valid: ValidCall[] = [];
  const rejected: RejectedCall[] = [];
  const kept: ToolCall[] = [];
  let delegates = 0;
  for (const call of calls) {
    const key = `${call.function.name}\u0000${call.function.arguments}`;
    if (seen.has(key)) continue; // the model repeated itself; one run is enough
    seen.add(key);
    kept.push(call);
    const name = known.has(call.function.name)
      ? call.function.name
      : repairName(call.function.name, options.names);
    if (!name) {
      rejected.push({
        call,
        kind: 'unknown_tool',
        message: unknownToolMessage(call, options.names),
      });
      continue;
    }
    const args = parseArguments(call.function.arguments);
    if (typeof args === 'string') {
      rejected.push({ call, kind: 'invalid_json', message: args });
      continue;
    }
    if (name === 'delegate_task' && ++delegates > options.maxDelegateCalls) {
      rejected.push({
        call,
        kind: 'over_cap',
        message: `Error: at most ${options.maxDelegateCalls} delegate_task calls per response; this one was not run. Put several tasks in one delegate_task call instead.`,
      });
      continue;
    }
    valid.push({ call, name, args });
  }
  return { valid, rejected, kept };
}

/** The arguments as an object, or an error message for the model. */
export function parseArguments(raw: string): Record<string, unknown> | string {
  if (raw.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
    return 'Error: tool arguments must be a JSON object. Call the tool again with a JSON object.';
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `Error: the arguments are not valid JSON (${reason}). Call the tool again with valid JSON arguments.`;
  }
}

function unknownToolMessage(call: ToolCall, names: readonly string[]): string {
  return `Error: there is no tool named "${call.function.name}". Available tools: ${[...names].sort().join(', ')}.`;
}

/** The real name a misspelled one most likely means, when the match is close. */
export function repairName(name: string, names: readonly string[]): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[-\s.]/g, '_');
  const wanted = norm(name);
  const exact = names.find((n) => norm(n) === wanted);
  if (exact) return exact;
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(wanted.length / 5)) + 1;
  for (const candidate of names) {
    const d = distance(wanted, norm(candidate));
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const sub = (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      row[j] = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, sub);
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}
