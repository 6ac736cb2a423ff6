/**
 * Splitting one response's tool calls into ordered segments the executor can run: a parallel
 * segment holds calls that may run together; a sequential segment runs its calls one by one.
 * Order between segments always follows the model's order.
 */
import { parseRawArgs } from '../registry/prepare-args.js';
import type { ToolSpec } from '../tool-spec.js';
import { isReadOnly, parallelClassOf, pathsOf, pathsOverlap } from './safety.js';

/** The most calls the executor should run at once within one parallel segment. */
export const MAX_PARALLEL_TOOL_WORKERS = 8;

/** One tool call as the model sent it. */
export interface PlannedCall {
  readonly name: string;
  /** The arguments: an object or a JSON string. */
  readonly args: unknown;
  readonly id?: string;
}

/** A run of calls with one scheduling mode. */
export interface CallBatch<C extends PlannedCall = PlannedCall> {
  readonly mode: 'parallel' | 'sequential';
  readonly calls: readonly C[];
}

/** What planning needs from the registry. */
export interface SpecLookup {
  get(name: string): ToolSpec | undefined;
}

interface Claim {
  readonly paths: readonly string[];
  readonly readOnly: boolean;
}

/** Whether `call` can join a parallel segment, and the paths it claims there. */
function parallelClaim(call: PlannedCall, lookup: SpecLookup): Claim | undefined {
  const spec = lookup.get(call.name);
  const kind = parallelClassOf(call.name, spec);
  if (kind === 'never' || kind === 'sequential') return undefined;
  if (kind === 'read-only') return { paths: [], readOnly: true };
  const parsed = parseRawArgs(call.args);
  if (!parsed.ok) return undefined;
  const paths = pathsOf(spec, parsed.args);
  return paths ? { paths, readOnly: isReadOnly(call.name, spec) } : undefined;
}

function conflicts(claim: Claim, taken: readonly Claim[]): boolean {
  return taken.some(
    (other) =>
      !(claim.readOnly && other.readOnly) &&
      claim.paths.some((a) => other.paths.some((b) => pathsOverlap(a, b))),
  );
}

function push<C extends PlannedCall>(
  out: CallBatch<C>[],
  mode: CallBatch['mode'],
  calls: C[],
): void {
  if (calls.length === 0) return;
  // A "parallel" group of one is just a sequential call; merge it with its neighbours.
  const effective = calls.length === 1 ? 'sequential' : mode;
  const last = out[out.length - 1];
  if (effective === 'sequential' && last?.mode === 'sequential') {
    out[out.length - 1] = { mode: 'sequential', calls: [...last.calls, ...calls] };
  } else {
    out.push({ mode: effective, calls });
  }
}

/**
 * Plans the execution of one response's tool calls. Never-parallel tools (`clarify`), unknown
 * tools and tools that are neither read-only nor path-scoped run sequentially; read-only tools
 * and path-scoped tools with known, non-overlapping paths run in parallel segments (the executor
 * caps concurrency at {@link MAX_PARALLEL_TOOL_WORKERS}). A path conflict closes the current
 * segment and starts another.
 */
export function planBatches<C extends PlannedCall>(
  calls: readonly C[],
  lookup: SpecLookup,
): CallBatch<C>[] {
  const out: CallBatch<C>[] = [];
  let group: C[] = [];
  let claims: Claim[] = [];
  for (const call of calls) {
    const claim = parallelClaim(call, lookup);
    if (!claim) {
      push(out, 'parallel', group);
      group = [];
      claims = [];
      push(out, 'sequential', [call]);
      continue;
    }
    if (conflicts(claim, claims)) {
      push(out, 'parallel', group);
      group = [];
      claims = [];
    }
    group.push(call);
    claims.push(claim);
  }
  push(out, 'parallel', group);
  return out;
}
