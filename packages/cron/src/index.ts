/**
 * @packageDocumentation
 * @hermes/cron — scheduled agent jobs: schedule parsing, a job store with leases, the scheduler
 * tick, the job executor (prompt scan, run, output files, delivery, failure alerts) and the
 * `cronjob` tool.
 */
export * from './job.js';
export * from './run/seams.js';
export * from './scheduler/job-executor.js';
export * from './store/job-store.js';
