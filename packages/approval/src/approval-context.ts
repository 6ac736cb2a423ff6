/** What an {@link ApprovalHandler} is told about the command it is asked to rule on. */

/**
 * The circumstances of one approval request. Built by the caller (the agent loop or a tool), never
 * by the model, so it is a plain interface rather than a parsed schema.
 */
export interface ApprovalContext {
  /** The session the command belongs to. A `session` decision applies to this session only. */
  readonly sessionId: string;
  /** Where the person is: `cli`, `telegram`, `api-server`, … (the gateway adapter's `platform`). */
  readonly platform: string;
  /** The working directory the command would run in, when known; shown to the person. */
  readonly cwd?: string;
  /**
   * The stable key of the dangerous pattern that matched (for example `recursive_delete`). A
   * `session` or `always` decision allows this key, not the literal command.
   */
  readonly patternKey?: string;
  /** The tool that wants to run the command (`terminal`, `process`, …), when known. */
  readonly toolName?: string;
  /**
   * Aborted when the answer is no longer wanted (the turn was interrupted, the session closed).
   * A handler must then resolve `deny` promptly and withdraw any prompt it is showing.
   */
  readonly signal?: AbortSignal;
  /**
   * How long to wait for the person, in milliseconds. When it elapses without an answer the
   * handler must resolve `deny`. Absent means the handler's own default applies.
   */
  readonly timeoutMs?: number;
}
