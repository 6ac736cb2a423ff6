/** What the host hands a plugin's `register` function. Implemented by the host in a later issue. */
import type { ContextEngine } from '@hermes/context-engine';
import type { PlatformAdapter } from '@hermes/gateway';
import type { MemoryProvider } from '@hermes/memory';
import type { ToolSchema } from '@hermes/protocol';

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
}

/** The points in the agent's life a plugin can hook into. */
export type PluginHookName =
  | 'preToolCall'
  | 'postToolCall'
  | 'preLlmCall'
  | 'postLlmCall'
  | 'sessionStart'
  | 'sessionEnd';

/** What a hook receives. Each hook's exact payload is fixed by the host issue. */
export type PluginHookPayload = Readonly<Record<string, unknown>>;

/**
 * A hook handler. Its return value is interpreted per hook (for example, `preToolCall` may
 * block a call or rewrite its arguments); `undefined` means "carry on". Errors are contained.
 */
export type PluginHookHandler = (payload: PluginHookPayload) => unknown;

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
 * The registration API a plugin's `register(ctx)` receives. Tools, hooks, platforms and
 * commands stack; a memory provider or context engine is a strategy, only one of which is active
 * (chosen by `config.yaml`), so registering one makes it available rather than active.
 *
 * This is an interface only: the plugin host (discovery, the `plugins.enabled` allowlist, the
 * registries behind these methods) is implemented in a later issue.
 */
export interface PluginContext {
  /** Offers a tool to the model. */
  registerTool(tool: PluginTool): void;
  /** Runs `handler` at the named point of every turn. */
  registerHook(name: PluginHookName, handler: PluginHookHandler): void;
  /** Makes a chat platform available to the gateway under `platform`. */
  registerPlatform(platform: string, create: CreatePlatformAdapter): void;
  /** Makes an external memory provider selectable by its `name`. */
  registerMemoryProvider(provider: MemoryProvider): void;
  /** Makes a context engine selectable by its `name`. */
  registerContextEngine(engine: ContextEngine): void;
  /** Adds a `hermes <name>` subcommand. */
  registerCommand(command: PluginCommand): void;
  /** The plugin's logger. */
  readonly logger: PluginLogger;
}
