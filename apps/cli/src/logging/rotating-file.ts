/** The rotating log file lives in `@hermes/runtime`; this module keeps the CLI's import paths. */
export {
  DEFAULT_LOG_BACKUPS,
  DEFAULT_MAX_LOG_BYTES,
  RotatingFile,
  type RotatingFileOptions,
} from '@hermes/runtime';
