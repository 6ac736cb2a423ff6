/**
 * Toolsets from three sources — built in, registered at runtime (plugins, MCP servers), and the
 * registry itself (every tool's `toolset` field) — plus aliases, resolved into tool names with
 * include-cycle detection, `all` / `*`, and the bundle-disable rule.
 */
import { z } from 'zod';
import { BUILTIN_TOOLSETS, HERMES_CORE_TOOLS, type ToolsetDefinition } from './builtin-toolsets.js';
import { ToolsetError } from './toolset-errors.js';

/** What the catalog needs from the tool registry. */
export interface RegistryToolsetView {
  /** Every registered tool's name. */
  toolNames(): readonly string[];
  /** Registered tools whose `toolset` is `name`. */
  toolsOfToolset(name: string): readonly string[];
  /** Every distinct `toolset` value among registered tools. */
  registryToolsetNames(): readonly string[];
}

/** Toolset names that mean "every tool". */
export const ALL_TOOLSETS: ReadonlySet<string> = new Set(['all', '*']);

/** Toolsets whose tools `all` never includes (internal machinery such as the search bridge). */
const INTERNAL_TOOLSETS = new Set(['tool_search']);

const NAME_RE = /^[A-Za-z0-9_.:-]{1,64}$/;

const DefinitionSchema = z.object({
  description: z.string(),
  tools: z.array(z.string().min(1)),
  includes: z.array(z.string().min(1)).default([]),
  platform: z.boolean().optional(),
});

/** Options for resolving toolsets. */
export interface ResolveOptions {
  /** Include registry toolsets and registry tools of built-in toolsets (default true). */
  readonly includeRegistry?: boolean;
}

const EMPTY_VIEW: RegistryToolsetView = {
  toolNames: () => [],
  toolsOfToolset: () => [],
  registryToolsetNames: () => [],
};

/** The toolsets known to one registry. */
export class ToolsetCatalog {
  readonly #builtins: Readonly<Record<string, ToolsetDefinition>>;
  readonly #runtime = new Map<string, ToolsetDefinition>();
  readonly #aliases = new Map<string, string>();
  #view: RegistryToolsetView = EMPTY_VIEW;
  #onChange: () => void = () => {};

  /** @param builtins - The fixed toolsets; default {@link BUILTIN_TOOLSETS}. */
  constructor(builtins: Readonly<Record<string, ToolsetDefinition>> = BUILTIN_TOOLSETS) {
    this.#builtins = builtins;
  }

  /** Connects the catalog to its registry: tools by toolset, and who to tell about changes. */
  attach(view: RegistryToolsetView, onChange: () => void): void {
    this.#view = view;
    this.#onChange = onChange;
  }

  /**
   * Adds (or replaces) a runtime toolset, such as a plugin's or an MCP server's. A built-in name
   * cannot be replaced.
   * @throws ToolsetError when the name or definition is invalid.
   */
  register(name: string, definition: ToolsetDefinition): void {
    if (!NAME_RE.test(name) || ALL_TOOLSETS.has(name)) {
      throw new ToolsetError(
        `Toolset name "${name}" is invalid: use 1-64 letters, digits, "_", "-", "." or ":" (and not "all" or "*").`,
      );
    }
    if (name in this.#builtins) {
      throw new ToolsetError(
        `Toolset "${name}" is built in and cannot be replaced; register it under another name.`,
      );
    }
    const parsed = DefinitionSchema.safeParse(definition);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ToolsetError(
        `Toolset "${name}" is invalid: field "${issue?.path.join('.') ?? ''}": ${issue?.message ?? 'bad value'}.`,
      );
    }
    const { platform, ...rest } = parsed.data;
    this.#runtime.set(name, Object.freeze(platform === undefined ? rest : { ...rest, platform }));
    this.#onChange();
  }

  /** Removes a runtime toolset; returns whether it existed. */
  unregister(name: string): boolean {
    const removed = this.#runtime.delete(name);
    if (removed) this.#onChange();
    return removed;
  }

  /**
   * Makes `alias` another name for toolset `target` (for example an MCP server's short name).
   * @throws ToolsetError when the alias would shadow a real toolset.
   */
  registerAlias(alias: string, target: string): void {
    if (!NAME_RE.test(alias) || this.#isDefined(alias) || ALL_TOOLSETS.has(alias)) {
      throw new ToolsetError(
        `Toolset alias "${alias}" is invalid or shadows an existing toolset; pick another alias.`,
      );
    }
    this.#aliases.set(alias, target);
    this.#onChange();
  }

  /** Removes an alias; returns whether it existed. */
  unregisterAlias(alias: string): boolean {
    const removed = this.#aliases.delete(alias);
    if (removed) this.#onChange();
    return removed;
  }

  #isDefined(name: string): boolean {
    return name in this.#builtins || this.#runtime.has(name);
  }

  #canonical(name: string): string {
    return this.#aliases.get(name) ?? name;
  }

  /** The definition behind `name` (aliases followed), or `undefined` when there is none. */
  get(name: string, options: ResolveOptions = {}): ToolsetDefinition | undefined {
    const canonical = this.#canonical(name);
    const fixed = this.#builtins[canonical] ?? this.#runtime.get(canonical);
    if (options.includeRegistry === false) return fixed;
    const registered = this.#view.toolsOfToolset(canonical);
    if (!fixed) {
      if (registered.length === 0) return undefined;
      return {
        description: `Tools registered under "${canonical}"`,
        tools: registered,
        includes: [],
      };
    }
    const extra = registered.filter((t) => !fixed.tools.includes(t));
    return extra.length === 0 ? fixed : { ...fixed, tools: [...fixed.tools, ...extra] };
  }

  /** Every toolset name: built in, runtime, registry and aliases. */
  names(): string[] {
    const names = new Set([
      ...Object.keys(this.#builtins),
      ...this.#runtime.keys(),
      ...this.#view.registryToolsetNames(),
      ...this.#aliases.keys(),
    ]);
    return [...names].sort();
  }

  /** Whether `name` is a platform bundle (its disabling spares core tools). */
  isPlatform(name: string): boolean {
    return this.get(name, { includeRegistry: false })?.platform === true;
  }

  /**
   * The tool names `name` stands for, includes expanded depth-first, duplicates removed, in
   * first-seen order. `all` / `*` mean every tool in every toolset plus every registered tool.
   * @throws ToolsetError for an unknown toolset or an include cycle (the message shows the cycle).
   */
  resolve(name: string, options: ResolveOptions = {}): string[] {
    if (ALL_TOOLSETS.has(name)) return this.#resolveAll(options);
    const out = new Set<string>();
    this.#expand(name, [], out, options);
    return [...out];
  }

  #expand(name: string, stack: string[], out: Set<string>, options: ResolveOptions): void {
    const canonical = this.#canonical(name);
    if (stack.includes(canonical)) {
      const cycle = [...stack.slice(stack.indexOf(canonical)), canonical].join(' → ');
      throw new ToolsetError(`Toolset include cycle: ${cycle}. Remove one of these includes.`, {
        cycle,
      });
    }
    if (ALL_TOOLSETS.has(canonical)) {
      for (const tool of this.#resolveAll(options)) out.add(tool);
      return;
    }
    const definition = this.get(canonical, options);
    if (!definition) {
      const via = stack.length > 0 ? ` (included by "${stack[stack.length - 1]}")` : '';
      throw new ToolsetError(
        `Unknown toolset "${name}"${via}. Known toolsets: ${this.names().join(', ')}.`,
        { toolset: name },
      );
    }
    for (const tool of definition.tools) out.add(tool);
    for (const include of definition.includes)
      this.#expand(include, [...stack, canonical], out, options);
  }

  #resolveAll(options: ResolveOptions): string[] {
    const out = new Set<string>();
    const sources = [...Object.keys(this.#builtins), ...this.#runtime.keys()];
    if (options.includeRegistry !== false) sources.push(...this.#view.registryToolsetNames());
    for (const source of sources) {
      if (INTERNAL_TOOLSETS.has(source)) continue;
      const definition = this.get(source, options);
      for (const tool of definition?.tools ?? []) out.add(tool);
    }
    if (options.includeRegistry !== false) {
      for (const tool of this.#view.toolNames()) {
        if (!this.#isInternalTool(tool)) out.add(tool);
      }
    }
    return [...out];
  }

  #isInternalTool(tool: string): boolean {
    for (const internal of INTERNAL_TOOLSETS) {
      if (this.#view.toolsOfToolset(internal).includes(tool)) return true;
    }
    return false;
  }

  /** The union of several toolsets, in first-seen order. */
  resolveMany(names: readonly string[], options: ResolveOptions = {}): string[] {
    const out = new Set<string>();
    for (const name of names) for (const tool of this.resolve(name, options)) out.add(tool);
    return [...out];
  }

  /** A toolset's tools outside the core list: what disabling a platform bundle removes. */
  bundleNonCoreTools(name: string, options: ResolveOptions = {}): Set<string> {
    const core = new Set(HERMES_CORE_TOOLS);
    return new Set(this.resolve(name, options).filter((tool) => !core.has(tool)));
  }

  /**
   * The tools enabled by `enabled` minus those removed by `disabled`. Disabling a platform
   * bundle removes only its non-core extras (so `hermes-discord` takes away the Discord tools,
   * not `terminal`); disabling any other toolset removes all its tools. Unknown disabled names
   * are ignored: there is nothing to take away.
   * @throws ToolsetError for an unknown enabled toolset or an include cycle.
   */
  select(
    enabled: readonly string[],
    disabled: readonly string[] = [],
    options: ResolveOptions = {},
  ): string[] {
    const tools = new Set(this.resolveMany(enabled, options));
    for (const name of disabled) {
      if (!ALL_TOOLSETS.has(name) && !this.get(name, options)) continue;
      const removed = this.isPlatform(name)
        ? this.bundleNonCoreTools(name, options)
        : this.resolve(name, options);
      for (const tool of removed) tools.delete(tool);
    }
    return [...tools];
  }
}
