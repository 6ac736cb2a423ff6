/** The gateway server both binaries run: its composition and its command. */
export * from './build-gateway-server.js';
export * from './gateway-adapters.js';
export * from './gateway-cron.js';
export * from './gateway-plugins.js';
export * from './gateway-secrets.js';
export * from './run-gateway-command.js';
export * from './stop-events.js';
