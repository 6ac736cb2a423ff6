/** The rotating, redacting file logger both binaries write `HERMES_HOME/logs/` with. */
export * from './logger.js';
export * from './rotating-file.js';
