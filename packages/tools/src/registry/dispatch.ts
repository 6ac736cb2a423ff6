/**
 * The one path every generic tool call takes: name repair, the loop-owned refusal, argument
 * preparation, pre-tool-call hooks, the handler, result truncation, post-tool-call hooks. It
 * never throws; every failure becomes a sanitized `[TOOL_ERROR]` result.
 */
import type { ToolContext } from '../tool-context.js';
import type { ToolHandlerResult, ToolResultImage, ToolSpec } from '../tool-spec.js';
import {
  asBlock,
  type DispatchStatus,
  type HookErrorReporter,
  type PostToolCallHook,
  type PreToolCallHook,
} from './hooks.js';
import { isLoopOwned, loopOwnedMessage } from './loop-owned.js';
import { repairToolName } from './name-repair.js';
import { prepareArgs } from './prepare-args.js';
import { type ResultLimits, truncateToolResult } from './result-limits.js';
import { sanitizeToolError } from './sanitize-tool-error.js';

/** What one dispatched call produced. */
export interface DispatchResult {
  /** The tool that ran (after name repair), or the requested name when none matched. */
  readonly name: string;
  /** The text for the tool message: the result, a `[TOOL_ERROR]` string, or the block message. */
  readonly content: string;
  readonly status: DispatchStatus;
  /** Wall time of the whole dispatch, in milliseconds. */
  readonly durationMs: number;
  /** Structured data the handler returned beside its text. */
  readonly data?: unknown;
  /** Images the handler returned for the model to see. */
  readonly images?: readonly ToolResultImage[];
  /** The name the model sent, when it was repaired to {@link DispatchResult.name}. */
  readonly repairedFrom?: string;
  /** Whether the result was cut to the size limits. */
  readonly truncated?: boolean;
}

/** Per-call options for dispatch. */
export interface DispatchOptions {
  /**
   * The names this session may call. Others are treated as unknown (and suggestions come from
   * this set). Default: every registered tool.
   */
  readonly allowedTools?: ReadonlySet<string>;
  /** Skip pre- and post-tool-call hooks, for internal calls that are not the user's task. */
  readonly suppressHooks?: boolean;
}

/** What dispatch needs from the registry. */
export interface DispatchHost {
  get(name: string): ToolSpec | undefined;
  names(): readonly string[];
  readonly preHooks: readonly PreToolCallHook[];
  readonly postHooks: readonly PostToolCallHook[];
  readonly limits: ResultLimits;
  readonly reportHookError: HookErrorReporter;
}

interface Outcome {
  name: string;
  args: Readonly<Record<string, unknown>>;
  status: DispatchStatus;
  content: string;
  data?: unknown;
  images?: readonly ToolResultImage[];
  repairedFrom?: string;
  truncated?: boolean;
}

function errorOutcome(
  name: string,
  message: unknown,
  args: Readonly<Record<string, unknown>> = {},
): Outcome {
  return { name, args, status: 'error', content: sanitizeToolError(message) };
}

type Resolution = { spec: ToolSpec; from?: string } | { error: Outcome };

function resolveSpec(
  host: DispatchHost,
  requested: string,
  allowed?: ReadonlySet<string>,
): Resolution {
  const direct = host.get(requested);
  if (direct && (!allowed || allowed.has(requested))) return { spec: direct };
  const known = allowed ? host.names().filter((n) => allowed.has(n)) : host.names();
  const repair = repairToolName(requested, known);
  const repaired = repair.kind === 'unknown' ? undefined : host.get(repair.name);
  if (repaired)
    return repair.kind === 'repaired' ? { spec: repaired, from: requested } : { spec: repaired };
  const hint =
    repair.kind === 'unknown' && repair.suggestions.length > 0
      ? ` Did you mean: ${repair.suggestions.join(', ')}?`
      : ` Available tools: ${known.slice(0, 40).join(', ')}.`;
  return { error: errorOutcome(requested, `Unknown tool "${requested}".${hint}`) };
}

interface HandlerText {
  text: string;
  data?: unknown;
  images?: readonly ToolResultImage[];
}

function toText(result: ToolHandlerResult): HandlerText {
  if (typeof result === 'string') return { text: result };
  if (typeof result === 'object' && result !== null && typeof result.text === 'string') {
    const out: HandlerText = { text: result.text };
    if ('data' in result) out.data = result.data;
    const images = validImages(result.images);
    if (images.length > 0) out.images = images;
    return out;
  }
  return { text: JSON.stringify(result) ?? String(result) };
}

/** Handlers are plugin code: keep only well-formed images rather than trusting the type. */
function validImages(images: unknown): ToolResultImage[] {
  if (!Array.isArray(images)) return [];
  return images.filter(
    (image): image is ToolResultImage =>
      typeof image === 'object' &&
      image !== null &&
      typeof (image as ToolResultImage).mimeType === 'string' &&
      /^image\/[\w.+-]+$/.test((image as ToolResultImage).mimeType) &&
      typeof (image as ToolResultImage).data === 'string' &&
      (image as ToolResultImage).data.length > 0,
  );
}

async function runPreHooks(
  host: DispatchHost,
  name: string,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<string | undefined> {
  for (const hook of host.preHooks) {
    try {
      const block = asBlock(await hook({ name, args, ctx }));
      if (block) return block.block;
    } catch (error) {
      host.reportHookError('preToolCall', error);
    }
  }
  return undefined;
}

async function runSpec(
  host: DispatchHost,
  spec: ToolSpec,
  raw: unknown,
  ctx: ToolContext,
  hooks: boolean,
): Promise<Outcome> {
  const prepared = prepareArgs(spec, raw);
  if (!prepared.ok) return errorOutcome(spec.name, prepared.message, prepared.args);
  const args = prepared.args;
  if (hooks && host.preHooks.length > 0) {
    const blocked = await runPreHooks(host, spec.name, args, ctx);
    if (blocked !== undefined)
      return { name: spec.name, args, status: 'blocked', content: blocked };
  }
  try {
    const { text, data, images } = toText(await spec.handler(args, ctx));
    const limits =
      spec.maxResultChars === undefined
        ? host.limits
        : { ...host.limits, maxBytes: spec.maxResultChars };
    const cut = truncateToolResult(text, limits);
    const outcome: Outcome = { name: spec.name, args, status: 'ok', content: cut.text };
    if (cut.truncated) outcome.truncated = true;
    if (data !== undefined) outcome.data = data;
    if (images !== undefined) outcome.images = images;
    return outcome;
  } catch (error) {
    return errorOutcome(spec.name, error, args);
  }
}

async function runPostHooks(
  host: DispatchHost,
  outcome: Outcome,
  ctx: ToolContext,
  durationMs: number,
): Promise<void> {
  const event = { ...outcome, ctx, durationMs };
  for (const hook of host.postHooks) {
    try {
      await hook(event);
    } catch (error) {
      host.reportHookError('postToolCall', error);
    }
  }
}

async function decide(
  host: DispatchHost,
  name: string,
  raw: unknown,
  ctx: ToolContext,
  options: DispatchOptions,
): Promise<Outcome> {
  if (isLoopOwned(name, host.get(name))) return errorOutcome(name, loopOwnedMessage(name));
  const resolved = resolveSpec(host, name, options.allowedTools);
  if ('error' in resolved) return resolved.error;
  const { spec, from } = resolved;
  if (isLoopOwned(spec.name, spec)) return errorOutcome(spec.name, loopOwnedMessage(spec.name));
  const outcome = await runSpec(host, spec, raw, ctx, options.suppressHooks !== true);
  if (from !== undefined) outcome.repairedFrom = from;
  return outcome;
}

/**
 * Runs one tool call through the whole pipeline and never throws.
 *
 * @param host - The registry.
 * @param name - The tool name the model sent (repaired when unambiguous).
 * @param raw - The arguments: an object, a JSON string, or nothing.
 * @param ctx - The per-call context handed to the handler and the hooks.
 */
export async function dispatchToolCall(
  host: DispatchHost,
  name: string,
  raw: unknown,
  ctx: ToolContext,
  options: DispatchOptions = {},
): Promise<DispatchResult> {
  const started = performance.now();
  let outcome: Outcome;
  try {
    outcome = await decide(host, name, raw, ctx, options);
  } catch (error) {
    // Defensive: every stage catches its own failures, but dispatch must never reject.
    outcome = errorOutcome(name, error);
  }
  const durationMs = performance.now() - started;
  if (options.suppressHooks !== true && host.postHooks.length > 0) {
    await runPostHooks(host, outcome, ctx, durationMs);
  }
  const { args: _args, ...result } = outcome;
  return { ...result, durationMs };
}
