/** What a tool handler is given besides its arguments: the session's world. */
import type { ApprovalSurface, CommandApproval } from '@hermes/approval';
import type { ExecutionEnvironment } from '@hermes/environments';

/** A question for the person, with up to four choices; resolves to the answer text. */
export type ClarifyCallback = (question: string, choices: readonly string[]) => Promise<string>;

/** The chat a gateway session talks to. */
export interface ToolOrigin {
  readonly platform: string;
  readonly chatId: string;
  readonly threadId?: string;
}

/**
 * Per-call context. The loop builds one per tool call; tests build them by hand. Everything a
 * tool needs from outside comes through here, so tools never reach for globals.
 */
export interface ToolContext {
  /** The session the call belongs to. */
  readonly sessionId: string;
  /** Where the person is: `cli`, `telegram`, `api-server`, `cron`, … */
  readonly platform: string;
  /**
   * The chat the session talks to, when it has one (gateway sessions): where a job created from
   * here delivers with `deliver: origin`.
   */
  readonly origin?: ToolOrigin;
  /** The tool-call id from the model, when dispatched by the loop. */
  readonly toolCallId?: string;
  /** The data home (`HERMES_HOME`), for caches and spill files. */
  readonly hermesHome: string;
  /** Where commands and file operations run. One per session. */
  readonly environment: ExecutionEnvironment;
  /** The command guard; every terminal / process command goes through it first. */
  readonly approval?: CommandApproval;
  /**
   * Who rules on an `ask` verdict for this session (pass it as the approval request's `surface`).
   * Absent means `interactive` when `clarify` is available, otherwise `single_query`.
   */
  readonly approvalSurface?: ApprovalSurface;
  /** Aborted when the turn is interrupted; long tools must stop promptly. */
  readonly signal: AbortSignal;
  /** Answers `clarify`; absent means no one can answer (headless), and clarify says so. */
  readonly clarify?: ClarifyCallback;
  /** Progress notes from long tools, for status lines. */
  readonly onActivity?: (message: string) => void;
  /**
   * The tools this session hides behind `tool_search` (from `ToolDefinitions.resolve`). The
   * bridge tools search, describe and call only these; absent means tool search is off.
   */
  readonly hiddenTools?: ReadonlySet<string>;
}
