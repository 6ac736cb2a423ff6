/**
 * What a tool is: its exposure (name, toolset, description, parameters) and its implementation
 * (handler), kept in one record so the registry can expose and dispatch it. Owned jointly by the
 * registry and the core tools; change it only in agreement with both.
 */
import type { JsonSchema } from '@hermes/protocol';
import type { ZodType } from 'zod';
import type { ToolContext } from './tool-context.js';

/** An image a tool returned: base64 bytes and their media type (`image/png`, …). */
export interface ToolResultImage {
  readonly mimeType: string;
  /** Base64, without a `data:` prefix. */
  readonly data: string;
}

/**
 * What a handler may return: plain text, or text plus structured data for the host and images
 * for the model. The loop attaches `images` to the tool message as image parts, which providers
 * that accept images in tool results (Anthropic Messages, OpenAI Responses) show the model; the
 * text should still describe each image for those that do not.
 */
export type ToolHandlerResult =
  | string
  | {
      readonly text: string;
      readonly data?: unknown;
      readonly images?: readonly ToolResultImage[];
    };

/**
 * One tool. `parameters` is a zod schema (preferred: validated and coerced before the handler
 * runs) or a JSON Schema (plugins, MCP: coerced and passed through).
 */
export interface ToolSpec<Args = Record<string, unknown>> {
  /** Unique, `[A-Za-z0-9_-]{1,64}`. */
  readonly name: string;
  /** The toolset that owns it, for example `terminal`, `file`, `web`. */
  readonly toolset: string;
  /** What the model reads to decide whether to call it. */
  readonly description: string;
  /** Argument schema: zod (validated) or JSON Schema (passed through after coercion). */
  readonly parameters: ZodType<Args> | JsonSchema;
  /** Runs the tool. May throw: dispatch turns every failure into a sanitized tool-error string. */
  readonly handler: (
    args: Args,
    ctx: ToolContext,
  ) => Promise<ToolHandlerResult> | ToolHandlerResult;
  /** Whether the tool is usable now (a binary present, a backend configured). Cached 30 s. */
  readonly checkFn?: () => boolean | Promise<boolean>;
  /** Environment variables that must be set for the tool to be exposed. */
  readonly requiresEnv?: readonly string[];
  /** May run concurrently with other parallel-safe tools in one batch. */
  readonly parallelSafe?: boolean;
  /**
   * For path-scoped tools (`read_file`, `write_file`, `patch`): the paths a call touches, so the
   * executor runs calls in parallel only when their paths do not overlap.
   */
  readonly pathScoped?: (args: Args) => readonly string[];
  /** Never run in parallel with anything (for example `clarify`). */
  readonly neverParallel?: boolean;
  /** Results longer than this are truncated with a note. */
  readonly maxResultChars?: number;
  /** Shown beside the tool's progress line. */
  readonly emoji?: string;
  /**
   * Owned by the agent loop (`memory`, `session_search`, `delegate_task`, `skills_*`,
   * `cronjob`): exposed to the model, but generic dispatch refuses it with an error saying the
   * agent loop must handle it.
   */
  readonly loopOwned?: boolean;
}
