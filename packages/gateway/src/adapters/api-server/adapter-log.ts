/**
 * Where the HTTP adapters report what happened. Structurally the gateway's log seam
 * (`GatewayLog`), so the app passes the same log to every adapter. Fields carry ids, counts and
 * codes, never secrets.
 */

/** Structured facts beside a log line. */
export type AdapterLogFields = Readonly<Record<string, string | number | boolean | undefined>>;

/** A log the adapters write to; implementations must not throw. */
export interface AdapterLog {
  info(message: string, fields?: AdapterLogFields): void;
  warn(message: string, fields?: AdapterLogFields): void;
  error(message: string, fields?: AdapterLogFields): void;
}

/** The log used when none is given. */
export const SILENT_ADAPTER_LOG: AdapterLog = {
  info() {},
  warn() {},
  error() {},
};
