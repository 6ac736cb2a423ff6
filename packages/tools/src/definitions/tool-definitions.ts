/**
 * Tool definitions per configuration: which tools the model sees and their parameter schemas.
 * Computing them resolves toolsets, runs availability checks and sanitizes schemas, and a
 * long-running gateway asks the same few questions over and over, so answers are memoized by
 * everything that can change them (at most 8, first in first out).
 */
import type { ToolSchema } from '@hermes/protocol';
import type { ToolRegistry } from '../registry/tool-registry.js';
import { parametersJsonSchema } from '../schema/json-schema-of.js';
import { sanitizeToolSchema } from '../schema/schema-sanitizer.js';
import { type AssemblyInput, assembleToolSearch } from '../tool-search/assemble.js';
import { installToolSearchBridge, TOOL_SEARCH_TOOL_NAMES } from '../tool-search/bridge-tools.js';
import type { CatalogLevel } from '../tool-search/catalog.js';
import type { ToolSpec } from '../tool-spec.js';
import { CheckFnCache } from './check-cache.js';
import {
  DEFAULT_ENABLED_TOOLSETS,
  DELEGATE_BLOCKED_TOOLS,
  definitionsCacheKey,
  type ToolDefinitionsRequest,
} from './definitions-request.js';

/** How many configurations are remembered. */
export const TOOL_DEFINITIONS_CACHE_MAX = 8;

/** Options for {@link ToolDefinitions}. */
export interface ToolDefinitionsOptions {
  /** Remembered configurations; default {@link TOOL_DEFINITIONS_CACHE_MAX}. */
  readonly maxEntries?: number;
  /** Clock for the 30-second `checkFn` cache; default `Date.now`. */
  readonly now?: () => number;
  /** `checkFn` answer lifetime in ms; default 30,000. */
  readonly checkTtlMs?: number;
  /** Where `requiresEnv` is looked up; default `process.env`. Read when an answer is computed. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Tool-search shares of the context window (defaults 0.10 and 0.05). */
  readonly toolSearch?: { readonly thresholdShare?: number; readonly catalogShare?: number };
}

/** One configuration's answer. Each call gets a fresh `schemas` array of frozen schemas. */
export interface ResolvedToolDefinitions {
  /** What to send as the request's `tools`. Append freely; the schemas themselves are frozen. */
  readonly schemas: ToolSchema[];
  /** Names the model can call directly (the bridge tools included when search is on). */
  readonly names: ReadonlySet<string>;
  /** Names reachable only through `tool_call`; put this on `ToolContext.hiddenTools`. */
  readonly hidden: ReadonlySet<string>;
  /** The catalog's detail level, when tools were hidden. */
  readonly catalogLevel?: CatalogLevel;
}

interface Entry {
  readonly schemas: readonly ToolSchema[];
  readonly names: ReadonlySet<string>;
  readonly hidden: ReadonlySet<string>;
  readonly catalogLevel?: CatalogLevel;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Computes and memoizes tool definitions for a registry. */
export class ToolDefinitions {
  readonly #registry: ToolRegistry;
  readonly #checks: CheckFnCache;
  readonly #cache = new Map<string, Entry>();
  readonly #pending = new Map<string, Promise<Entry>>();
  readonly #maxEntries: number;
  readonly #env: Readonly<Record<string, string | undefined>>;
  readonly #search: NonNullable<ToolDefinitionsOptions['toolSearch']>;

  /** Also registers the tool-search bridge tools on `registry` if they are missing. */
  constructor(registry: ToolRegistry, options: ToolDefinitionsOptions = {}) {
    this.#registry = registry;
    installToolSearchBridge(registry);
    this.#checks = new CheckFnCache({
      ...(options.now ? { now: options.now } : {}),
      ...(options.checkTtlMs !== undefined ? { ttlMs: options.checkTtlMs } : {}),
    });
    this.#maxEntries = options.maxEntries ?? TOOL_DEFINITIONS_CACHE_MAX;
    this.#env = options.env ?? process.env;
    this.#search = options.toolSearch ?? {};
  }

  /** How many configurations are remembered now. */
  get size(): number {
    return this.#cache.size;
  }

  /** The cache key `request` maps to right now. */
  keyOf(request: ToolDefinitionsRequest = {}): string {
    return definitionsCacheKey(request, this.#registry.generation);
  }

  /**
   * The tool schemas for `request`, as a fresh array.
   * @throws ToolsetError (as a rejection) for an unknown enabled toolset or an include cycle.
   */
  get(request: ToolDefinitionsRequest = {}): Promise<ToolSchema[]> {
    const key = this.keyOf(request);
    const hit = this.#cache.get(key);
    if (hit) return Promise.resolve(hit.schemas.slice());
    return this.#load(key, request).then((entry) => entry.schemas.slice());
  }

  /** The cached schemas for `request` without computing: a fresh array, or `undefined` on a miss. */
  peek(request: ToolDefinitionsRequest = {}): ToolSchema[] | undefined {
    return this.#cache.get(this.keyOf(request))?.schemas.slice();
  }

  /** The schemas plus the visible and hidden name sets for `request`. */
  async resolve(request: ToolDefinitionsRequest = {}): Promise<ResolvedToolDefinitions> {
    const key = this.keyOf(request);
    const entry = this.#cache.get(key) ?? (await this.#load(key, request));
    const out = { schemas: entry.schemas.slice(), names: entry.names, hidden: entry.hidden };
    return entry.catalogLevel ? { ...out, catalogLevel: entry.catalogLevel } : out;
  }

  /** Forgets every remembered answer and every `checkFn` result. */
  clear(): void {
    this.#cache.clear();
    this.#checks.clear();
  }

  async #load(key: string, request: ToolDefinitionsRequest): Promise<Entry> {
    const pending = this.#pending.get(key);
    if (pending) return pending;
    const promise = this.#compute(request).finally(() => this.#pending.delete(key));
    this.#pending.set(key, promise);
    const entry = await promise;
    this.#cache.set(key, entry);
    while (this.#cache.size > this.#maxEntries) {
      const oldest = this.#cache.keys().next().value;
      if (oldest === undefined) break;
      this.#cache.delete(oldest);
    }
    return entry;
  }

  #selectNames(request: ToolDefinitionsRequest): string[] {
    const catalog = this.#registry.toolsets;
    const enabled = [...(request.enabledToolsets ?? DEFAULT_ENABLED_TOOLSETS)];
    if (request.dispatcherWorker === true) enabled.push('kanban');
    const bridge = new Set(TOOL_SEARCH_TOOL_NAMES);
    return catalog
      .select(enabled, request.disabledToolsets ?? [])
      .filter((name) => !bridge.has(name))
      .filter((name) => request.delegatedChild !== true || !DELEGATE_BLOCKED_TOOLS.has(name));
  }

  async #available(spec: ToolSpec): Promise<boolean> {
    const env = this.#env;
    if (spec.requiresEnv?.some((name) => !env[name])) return false;
    return this.#checks.isAvailable(spec);
  }

  #schemaOf(spec: ToolSpec, request: ToolDefinitionsRequest): ToolSchema {
    const profile = request.schemaProfile ?? 'default';
    return {
      type: 'function',
      function: {
        name: spec.name,
        description: spec.description,
        parameters: sanitizeToolSchema(parametersJsonSchema(spec.parameters), { profile }),
      },
    };
  }

  async #compute(request: ToolDefinitionsRequest): Promise<Entry> {
    const specs = this.#selectNames(request)
      .map((name) => this.#registry.get(name))
      .filter((spec): spec is ToolSpec => spec !== undefined);
    const availability = await Promise.all(specs.map((spec) => this.#available(spec)));
    const inputs: AssemblyInput[] = specs
      .filter((_, i) => availability[i])
      .map((spec) => ({ schema: this.#schemaOf(spec, request), toolset: spec.toolset }));
    const useSearch = request.skipToolSearch !== true && (request.contextLength ?? 0) > 0;
    if (!useSearch)
      return this.#entry(
        inputs.map((i) => i.schema),
        [],
      );
    const bridge = TOOL_SEARCH_TOOL_NAMES.map((name) => this.#registry.get(name))
      .filter((spec): spec is ToolSpec => spec !== undefined)
      .map((spec) => this.#schemaOf(spec, request));
    const assembly = assembleToolSearch(inputs, bridge, {
      contextLength: request.contextLength ?? 0,
      ...this.#search,
    });
    return this.#entry(assembly.schemas, assembly.hidden, assembly.catalogLevel);
  }

  #entry(
    schemas: readonly ToolSchema[],
    hidden: readonly string[],
    catalogLevel?: CatalogLevel,
  ): Entry {
    const entry = {
      // Elements frozen, array not: callers only ever get copies of the array, and V8 copies a
      // frozen array an order of magnitude slower than a plain one.
      schemas: schemas.map((schema) => deepFreeze(schema)),
      names: new Set(schemas.map((s) => s.function.name)),
      hidden: new Set(hidden),
    };
    return catalogLevel ? { ...entry, catalogLevel } : entry;
  }
}
