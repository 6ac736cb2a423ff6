/**
 * How the chat's hosts (the plugin host, the MCP hub) report: problems once on stderr, and
 * everything in the chat's log.
 */
import type { TextSink } from '@hermes/config';
import type { McpHostLogger, PluginHostLogger } from '@hermes/runtime';
import type { Logger } from '../logging/logger.js';

/** A logger writing warnings and errors to `stderr` (prefixed `hermes:`) and all to `log`. */
export function hostLogger(stderr: TextSink, log?: Logger): PluginHostLogger & McpHostLogger {
  return {
    info: (message) => log?.info(message),
    warn: (message) => {
      stderr.write(`hermes: warning: ${message}\n`);
      log?.warn(message);
    },
    error: (message) => {
      stderr.write(`hermes: ${message}\n`);
      log?.error(message);
    },
  };
}
