/**
 * The tool registry: every tool's implementation and exposure in one record, a generation
 * counter that changes whenever anything registered changes (so cached definitions know they are
 * stale), the toolsets, the hooks, and the central dispatch.
 */
import { HermesError, TOOL_NAME_PATTERN } from '@hermes/protocol';
import { parametersJsonSchema } from '../schema/json-schema-of.js';
import type { ToolContext } from '../tool-context.js';
import type { ToolSpec } from '../tool-spec.js';
import { ToolsetCatalog } from '../toolsets/toolset-catalog.js';
import {
  type DispatchHost,
  type DispatchOptions,
  type DispatchResult,
  dispatchToolCall,
} from './dispatch.js';
import type { HookErrorReporter, PostToolCallHook, PreToolCallHook } from './hooks.js';
import { DEFAULT_RESULT_LIMITS, type ResultLimits } from './result-limits.js';

/** The code of every {@link ToolRegistrationError}. */
export const TOOL_REGISTRATION_ERROR_CODE = 'tools.invalid_registration';

/** A tool could not be registered: a bad name, a missing handler, a duplicate. */
export class ToolRegistrationError extends HermesError {
  constructor(message: string) {
    super(TOOL_REGISTRATION_ERROR_CODE, message);
  }
}

/** Options for a {@link ToolRegistry}. */
export interface ToolRegistryOptions {
  /** The toolset catalog; default a new one holding the built-in toolsets. */
  readonly toolsets?: ToolsetCatalog;
  /** Result size limits; missing fields keep {@link DEFAULT_RESULT_LIMITS}. */
  readonly resultLimits?: Partial<ResultLimits>;
  /** Told about hooks that threw; default ignores them. */
  readonly onHookError?: HookErrorReporter;
}

/** Options for {@link ToolRegistry.register}. */
export interface RegisterOptions {
  /** Replace an existing tool of the same name instead of refusing. */
  readonly replace?: boolean;
}

/**
 * Holds the tools of one agent process. Registration is programmer input and throws on mistakes;
 * dispatch is model input and never throws.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry();
 * registry.register({ name: 'echo', toolset: 'demo', description: 'Echo text',
 *   parameters: z.object({ text: z.string() }), handler: ({ text }) => text });
 * const result = await registry.dispatch('echo', '{"text":"hi"}', ctx); // { status: 'ok', content: 'hi', … }
 * ```
 */
export class ToolRegistry {
  /** The toolsets this registry resolves; changes to it bump {@link ToolRegistry.generation}. */
  readonly toolsets: ToolsetCatalog;
  readonly #tools = new Map<string, ToolSpec>();
  readonly #preHooks: PreToolCallHook[] = [];
  readonly #postHooks: PostToolCallHook[] = [];
  readonly #limits: ResultLimits;
  readonly #reportHookError: HookErrorReporter;
  readonly #host: DispatchHost;
  #generation = 0;
  #names: readonly string[] = [];

  constructor(options: ToolRegistryOptions = {}) {
    this.toolsets = options.toolsets ?? new ToolsetCatalog();
    this.#limits = Object.freeze({ ...DEFAULT_RESULT_LIMITS, ...options.resultLimits });
    this.#reportHookError = options.onHookError ?? (() => {});
    this.#host = {
      get: (n) => this.#tools.get(n),
      names: () => this.#names,
      preHooks: this.#preHooks,
      postHooks: this.#postHooks,
      limits: this.#limits,
      reportHookError: this.#reportHookError,
    };
    this.toolsets.attach(
      {
        toolNames: () => this.#names,
        toolsOfToolset: (name) => this.#toolsOf(name),
        registryToolsetNames: () => [...new Set([...this.#tools.values()].map((t) => t.toolset))],
      },
      () => this.#bump(),
    );
  }

  /** Changes on every registration, unregistration, toolset or alias change. */
  get generation(): number {
    return this.#generation;
  }

  #bump(): void {
    this.#generation++;
    this.#names = Object.freeze([...this.#tools.keys()]);
  }

  #toolsOf(toolset: string): string[] {
    const out: string[] = [];
    for (const spec of this.#tools.values()) if (spec.toolset === toolset) out.push(spec.name);
    return out;
  }

  /**
   * Adds a tool. Its zod parameters are converted to JSON Schema now, so a schema problem shows
   * at startup rather than on the first call.
   * @throws ToolRegistrationError for an invalid spec or a duplicate name (unless `replace`).
   */
  register<Args>(spec: ToolSpec<Args>, options: RegisterOptions = {}): void {
    const erased = spec as unknown as ToolSpec;
    if (typeof erased.name !== 'string' || !TOOL_NAME_PATTERN.test(erased.name)) {
      throw new ToolRegistrationError(
        `Tool name "${String(erased.name)}" is invalid: use 1-64 letters, digits, "_" or "-".`,
      );
    }
    if (typeof erased.handler !== 'function') {
      throw new ToolRegistrationError(`Tool "${erased.name}" has no handler function.`);
    }
    if (typeof erased.toolset !== 'string' || erased.toolset.length === 0) {
      throw new ToolRegistrationError(`Tool "${erased.name}" needs a toolset name.`);
    }
    if (this.#tools.has(erased.name) && options.replace !== true) {
      throw new ToolRegistrationError(
        `Tool "${erased.name}" is already registered; unregister it first or pass { replace: true }.`,
      );
    }
    try {
      parametersJsonSchema(erased.parameters);
    } catch (error) {
      throw new ToolRegistrationError(
        `Tool "${erased.name}" has parameters that cannot be expressed as JSON Schema: ${String(error)}`,
      );
    }
    this.#tools.set(erased.name, erased);
    this.#bump();
  }

  /** Removes a tool; returns whether it was registered. */
  unregister(name: string): boolean {
    const removed = this.#tools.delete(name);
    if (removed) this.#bump();
    return removed;
  }

  /** The tool called `name`, if registered. */
  get(name: string): ToolSpec | undefined {
    return this.#tools.get(name);
  }

  /** Whether a tool called `name` is registered. */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** Every registered tool, in registration order. */
  list(): ToolSpec[] {
    return [...this.#tools.values()];
  }

  /** Every registered tool name, in registration order (a shared frozen array). */
  names(): readonly string[] {
    return this.#names;
  }

  /** The toolset a tool belongs to. */
  toolsetOf(name: string): string | undefined {
    return this.#tools.get(name)?.toolset;
  }

  /** Adds a pre-tool-call hook; returns a function that removes it. */
  onPreToolCall(hook: PreToolCallHook): () => void {
    this.#preHooks.push(hook);
    return () => removeItem(this.#preHooks, hook);
  }

  /** Adds a post-tool-call hook; returns a function that removes it. */
  onPostToolCall(hook: PostToolCallHook): () => void {
    this.#postHooks.push(hook);
    return () => removeItem(this.#postHooks, hook);
  }

  /**
   * Runs a tool call: repairs the name, refuses loop-owned tools, parses, coerces and validates
   * the arguments, runs the pre hooks (which may block), the handler, truncation and the post
   * hooks. Never throws: failures come back as `status: 'error'` with a `[TOOL_ERROR]` text.
   */
  dispatch(
    name: string,
    args: unknown,
    ctx: ToolContext,
    options: DispatchOptions = {},
  ): Promise<DispatchResult> {
    return dispatchToolCall(this.#host, name, args, ctx, options);
  }
}

function removeItem<T>(list: T[], item: T): void {
  const index = list.indexOf(item);
  if (index !== -1) list.splice(index, 1);
}
