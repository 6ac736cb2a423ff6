/** Where the plugin host writes: the app's log. */

/** The host's log; `debug` is optional (plugins' debug lines are dropped without it). */
export interface PluginHostLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug?(message: string): void;
}

/** Writes nothing: the default, since every problem is also in the plugin's status. */
export const SILENT_HOST_LOGGER: PluginHostLogger = Object.freeze({
  info() {},
  warn() {},
  error() {},
});
