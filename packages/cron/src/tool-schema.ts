/**
 * `@hermes/cron/tool-schema`: the `cronjob` tool's name, description and argument schema alone
 * (zod only; no croner, no SQLite), so a host can offer the tool at agent build and import the
 * package itself only when the model first calls it.
 */
export {
  CRONJOB_ACTIONS,
  CRONJOB_DESCRIPTION,
  type CronjobArgs,
  CronjobArgsSchema,
} from './tool/cronjob-args.js';
