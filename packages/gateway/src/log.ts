/**
 * The gateway's log seam. The app writes it to `HERMES_HOME/logs/gateway.log` (with rotation and
 * redaction); the package only says what happened. Fields carry ids, counts and error codes,
 * never message text or secrets, so a log line is safe to paste into an issue.
 */

/** Structured facts beside a log line: ids, counts, codes. Never message text or secrets. */
export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;

/** Where the gateway reports what it did. Implementations must not throw. */
export interface GatewayLog {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** A log that drops everything (the default when the app passes none). */
export const silentLog: GatewayLog = {
  info() {},
  warn() {},
  error() {},
};

/**
 * The safe facts about a thrown value for a log line: its code when it has one, and its message
 * cut short (messages from our own packages are secret-free; a foreign one is truncated so a
 * stray token in a long dump does not end up whole in the log).
 */
export function errorFields(error: unknown): { readonly error: string; readonly code?: string } {
  const code =
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string'
      ? (error as { code: string }).code
      : undefined;
  const message = error instanceof Error ? error.message : String(error);
  const short = message.length > 300 ? `${message.slice(0, 300)}…` : message;
  return code === undefined ? { error: short } : { error: short, code };
}

/** Calls `log[level]` and swallows what a broken log throws: logging must never stop a turn. */
export function safeLog(
  log: GatewayLog,
  level: keyof GatewayLog,
  message: string,
  fields?: LogFields,
): void {
  try {
    log[level](message, fields);
  } catch {
    // A log sink that throws is the app's bug; the gateway keeps serving.
  }
}
