/**
 * The CLI's file logger (`HERMES_HOME/logs/agent.log`, `errors.log`) lives in `@hermes/runtime`,
 * which the gateway shares; this module keeps the CLI's import paths.
 */
export {
  type CreateLoggerOptions,
  createLogger,
  formatLogLine,
  type LogFields,
  type Logger,
  type LogLevel,
  logPaths,
} from '@hermes/runtime';
