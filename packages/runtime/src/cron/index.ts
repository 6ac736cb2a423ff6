export * from './agent-cron-runner.js';
export * from './cron-jobs-api.js';
export * from './cron-service.js';
export * from './cron-skills.js';
export * from './cronjob-loop-tool.js';
export * from './gateway-cron-delivery.js';
export * from './gateway-pid.js';
