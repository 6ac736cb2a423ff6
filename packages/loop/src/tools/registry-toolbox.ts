/**
 * The loop's toolbox over `@hermes/tools`: definitions from the registry's memoized, toolset-
 * filtered cache; dispatch through the registry (validation, coercion, hooks, sanitizing); and the
 * registry's batch planner for parallel execution.
 */
import type { ToolSchema } from '@hermes/protocol';
import {
  planBatches,
  type ToolContext,
  ToolDefinitions,
  type ToolDefinitionsRequest,
  type ToolRegistry,
} from '@hermes/tools';
import type { PlannableCall, ToolBatch, Toolbox, ToolCallResult } from './toolbox.js';

/** Options of {@link RegistryToolbox}. */
export interface RegistryToolboxOptions {
  /** Which toolsets are enabled / disabled, the context length for tool search, … */
  readonly request?: ToolDefinitionsRequest;
  /** A shared definitions cache; default: one per toolbox. */
  readonly definitions?: ToolDefinitions;
}

/** A {@link Toolbox} backed by a ToolRegistry. */
export class RegistryToolbox implements Toolbox {
  readonly registry: ToolRegistry;
  readonly #definitions: ToolDefinitions;
  #request: ToolDefinitionsRequest;
  #allowed: ReadonlySet<string> = new Set();

  constructor(registry: ToolRegistry, options: RegistryToolboxOptions = {}) {
    this.registry = registry;
    this.#definitions = options.definitions ?? new ToolDefinitions(registry);
    this.#request = options.request ?? {};
  }

  /** Changes which toolsets are exposed from the next request on. */
  configure(request: ToolDefinitionsRequest): void {
    this.#request = request;
  }

  async schemas(): Promise<readonly ToolSchema[]> {
    const resolved = await this.#definitions.resolve(this.#request);
    // Hidden tools stay callable through tool_call, so dispatch must accept them.
    this.#allowed = new Set([...resolved.names, ...resolved.hidden]);
    return resolved.schemas;
  }

  names(): readonly string[] {
    return [...this.#allowed];
  }

  async dispatch(
    name: string,
    args: Record<string, unknown>,
    ctx: ToolContext,
  ): Promise<ToolCallResult> {
    const result = await this.registry.dispatch(name, args, ctx, { allowedTools: this.#allowed });
    const base = { content: result.content, status: result.status, durationMs: result.durationMs };
    return result.images?.length ? { ...base, images: result.images } : base;
  }

  plan<C extends PlannableCall>(calls: readonly C[]): ToolBatch<C>[] {
    return planBatches(calls, this.registry);
  }
}
