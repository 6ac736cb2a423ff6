/**
 * @packageDocumentation
 * @hermes/cron — scheduled agent jobs: schedule parsing, a job store with leases, the scheduler
 * tick, the job executor (prompt scan, run, output files, delivery, failure alerts) and the
 * `cronjob` tool.
 */
export * from './job.js';
export * from './run/build-prompt.js';
export * from './run/deliver-pending.js';
export * from './run/delivery-target.js';
export * from './run/executor.js';
export * from './run/output-files.js';
export * from './run/prompt-blocked.js';
export * from './run/queueing-delivery.js';
export { DEFAULT_RUN_TIMEOUT_MS } from './run/run-budget.js';
export * from './run/seams.js';
export * from './run/silent.js';
export * from './schedule/deliver-target.js';
export { parseDuration } from './schedule/duration.js';
export * from './schedule/next-run.js';
export * from './schedule/parse-schedule.js';
export * from './scheduler/cron-scheduler.js';
export * from './scheduler/job-executor.js';
export * from './scheduler/scheduler-options.js';
export * from './store/job-store.js';
export * from './store/sqlite-job-store.js';
export * from './tool/cronjob-args.js';
export * from './tool/cronjob-tool.js';
export * from './tool/job-input.js';
