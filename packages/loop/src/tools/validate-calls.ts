/**
 * Checks the tool calls of a response before anything runs: arguments must be JSON objects, names
 * must exist (close misspellings are repaired by the registry's `repairToolName`), identical duplicates are dropped, and the number
 * of `delegate_task` calls per response is capped. Problems become error results the model reads,
 * so every call still gets exactly one result.
 */
import type { ToolCall } from '@hermes/protocol';
import { repairToolName } from '@hermes/tools';

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
    const repair = known.has(call.function.name)
      ? undefined
      : repairToolName(call.function.name, options.names);
    const name = repair
      ? repair.kind === 'unknown'
        ? undefined
        : repair.name
      : call.function.name;
    if (!name) {
      const suggestions = repair?.kind === 'unknown' ? repair.suggestions : [];
      rejected.push({
        call,
        kind: 'unknown_tool',
        message: unknownToolMessage(call, options.names, suggestions),
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

function unknownToolMessage(
  call: ToolCall,
  names: readonly string[],
  suggestions: readonly string[],
): string {
  const close = suggestions.length ? ` Did you mean ${suggestions.join(' or ')}?` : '';
  return `Error: there is no tool named "${call.function.name}".${close} Available tools: ${[...names].sort().join(', ')}.`;
}
