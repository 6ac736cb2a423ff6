/** What the host hands a plugin's `register` function. */
import type { ContextEngine } from '@hermes/context-engine';
import type { PlatformAdapter } from '@hermes/gateway';
import type { MemoryProvider } from '@hermes/memory';
import type { ToolSchema } from '@hermes/protocol';
import type { PluginHookHandler, PluginHookName, PluginHookOptions } from './hooks.js';

/** What a tool handler receives besides its arguments. */
export interface PluginToolCallContext {
  /** The session the call belongs to. */
  readonly sessionId: string;
  /** Aborted when the turn is interrupted; long-running handlers must stop. */
  readonly signal: AbortSignal;
}

/** A tool a plugin offers the model. */
export interface PluginTool {
  /** The function definition the model sees: name, description, JSON-Schema parameters. */
  readonly schema: ToolSchema;
  /** The toolset it belongs to, so users can enable it by name. Default: the plugin's name. */
  readonly toolset?: string;
  /**
   * Runs the tool. `args` were parsed and coerced against `schema.function.parameters`. The
   * returned text becomes the tool result; a thrown error becomes a sanitized error result.
   */
  readonly handler: (
    args: Readonly<Record<string, unknown>>,
    ctx: PluginToolCallContext,
  ) => string | Promise<string>;
  /**
   * Replace a built-in tool, or another plugin's, of the same name. Honoured only when the user
   * also lists this plugin in `plugins.allow_override`; otherwise the clash is reported and this
   * tool skipped.
   */
  readonly override?: boolean;
}

/** A `hermes <name>` subcommand a plugin adds to the CLI. */
export interface PluginCommand {
  /** The subcommand's name, lower-case. */
  readonly name: string;
  /** One line for `hermes --help`. */
  readonly description: string;
  /** Runs it with the arguments after the name; resolves the exit code (default 0). */
  readonly run: (args: readonly string[]) => number | undefined | Promise<number | undefined>;
}

/** Creates a platform adapter from its section of `config.yaml`. */
export type CreatePlatformAdapter = (
  config: Readonly<Record<string, unknown>>,
) => PlatformAdapter | Promise<PlatformAdapter>;

/** Where a plugin writes diagnostics; the host prefixes each line with the plugin's name. */
export interface PluginLogger {
  debug(message: string, details?: Readonly<Record<string, unknown>>): void;
  info(message: string, details?: Readonly<Record<string, unknown>>): void;
  warn(message: string, details?: Readonly<Record<string, unknown>>): void;
  error(message: string, details?: Readonly<Record<string, unknown>>): void;
}

/**
 * A strategy made per agent: the host calls `create` for every agent that selects `name`, so
 * per-session state never leaks between the gateway's conversations. A plain instance
 * registered instead is shared by every agent of the process.
 */
export interface StrategyFactory<T, Init = void> {
  /** What config selects it by (`memory.provider`, `context.engine`). */
  readonly name: string;
  create(init: Init): T;
}

/** What a context-engine factory is told about the agent it serves. */
export interface ContextEngineInit {
  /** The model's context window, in tokens. */
  readonly contextLength: number;
  readonly model: string;
  readonly hermesHome: string;
}

/** A plugin's private folder, `HERMES_HOME/plugin-data/<plugin>`; created before `register`. */
export interface PluginStorage {
  /** The folder's absolute path. */
  readonly dir: string;
  /**
   * The absolute path of `relative` inside the folder.
   * @throws Error when `relative` would leave the folder (`..`, an absolute path).
   */
  path(relative: string): string;
}

/**
 * The registration API a plugin's `register(ctx)` receives. Tools, hooks, platforms and
 * commands stack; a memory provider or context engine is a strategy, only one of which is active
 * (chosen by `config.yaml`), so registering one makes it available rather than active.
 *
 * Registration happens only inside `register`; the host reports (and skips) what clashes.
 */
export interface PluginContext {
  /** The plugin's name (its package name). */
  readonly name: string;
  /** Offers a tool to the model, in the toolset `tool.toolset` (default: the plugin's name). */
  registerTool(tool: PluginTool): void;
  /** Runs `handler` at the named point; see `PluginHookPayloads` for what each gets. */
  registerHook<N extends PluginHookName>(
    name: N,
    handler: PluginHookHandler<N>,
    options?: PluginHookOptions,
  ): void;
  /** Makes a chat platform available to the gateway under `platforms.<platform>`. */
  registerPlatform(platform: string, create: CreatePlatformAdapter): void;
  /** Makes an external memory provider selectable by `memory.provider: <name>`. */
  registerMemoryProvider(provider: MemoryProvider | StrategyFactory<MemoryProvider>): void;
  /** Makes a context engine selectable by `context.engine: <name>`. */
  registerContextEngine(
    engine: ContextEngine | StrategyFactory<ContextEngine, ContextEngineInit>,
  ): void;
  /** Adds a `hermes <name>` subcommand. */
  registerCommand(command: PluginCommand): void;
  /** The plugin's logger (lines go to the host's log, prefixed with the plugin's name). */
  readonly logger: PluginLogger;
  /** The plugin's private folder. */
  readonly storage: PluginStorage;
  /** The plugin's own section of config.yaml, `plugins.config.<name>` (`{}` when absent). */
  readonly config: Readonly<Record<string, unknown>>;
}
