/**
 * @packageDocumentation
 * One configuration, one agent factory, shared by the `hermes` and `hermes-gateway` binaries:
 * reading `HERMES_HOME/config.yaml` and `.env` (validated, `${VAR}` substituted, environment
 * overrides applied) and building Agents from the result.
 */
export * from './agents/agent-factory.js';
export * from './agents/agent-plugins.js';
export * from './agents/build-agent.js';
export * from './agents/config-settings.js';
export * from './agents/configured-plugins.js';
export * from './agents/platform-toolsets.js';
export * from './auth/auth-file.js';
export * from './auth/auth-keys.js';
export * from './auth/key-report.js';
export * from './auth/pool-health.js';
export * from './auth/provider-keys.js';
export * from './config/api-server-env.js';
export * from './config/atomic-write.js';
export * from './config/config-document.js';
export * from './config/config-edit.js';
export * from './config/config-schema.js';
export * from './config/cron-section.js';
export * from './config/env-file.js';
export * from './config/hermes-config.js';
export * from './config/load-config.js';
export * from './config/provider-entry.js';
export * from './config/secrets.js';
export * from './config/storage-section.js';
export * from './config/substitute.js';
export * from './config/unknown-keys.js';
export * from './config/validate-config.js';
export * from './config/web-section.js';
export * from './cron/index.js';
export * from './gateway/index.js';
export * from './logging/index.js';
export * from './mcp/index.js';
export * from './plugins/index.js';
export * from './storage/gateway-storage.js';
export * from './storage/open-stores.js';
export * from './storage/postgres-connection.js';
export * from './storage/storage-copy.js';
export * from './storage/storage-migrate.js';
export * from './web/web-search-config.js';
