/** The CLI's rotating, redacting file logger (`HERMES_HOME/logs/agent.log`, `errors.log`). */
export * from './logger.js';
export * from './rotating-file.js';
