/**
 * A gateway process for the PostgreSQL liveness tests, run under plain `node`; it loads the
 * TypeScript sources through Vite's module runner (as `gateway-store-child.mjs` does), so it
 * tests the code as written.
 *
 * Usage: `node postgres-gateway-child.mjs '<json config>'` with { url, schema, owner, key }:
 * opens a PostgresGatewayStore as `owner`, begins a turn on `key`, records a reply, holds `key`'s
 * PostgresSessionLane lease, prints `{"type":"ready"}` and waits to be killed.
 */
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const config = JSON.parse(process.argv[2]);
const conditions = ['@hermes/source', 'node', 'import', 'module', 'default'];
const load = async (relative) => {
  const source = fileURLToPath(new URL(relative, import.meta.url));
  const { module } = await runnerImport(source, {
    configFile: false,
    logLevel: 'error',
    resolve: { conditions },
    ssr: { resolve: { conditions } },
  });
  return module;
};
const { PostgresDatabase } = await load('../../../state/src/postgres.ts');
const { PostgresGatewayStore, PostgresSessionLane } = await load('../../src/postgres.ts');

const database = await PostgresDatabase.connect({ url: config.url, schema: config.schema });
const store = await PostgresGatewayStore.open(database, { owner: config.owner });
const target = { chatId: config.key };
await store.beginTurn({
  sessionKey: config.key,
  sessionId: `s-${config.key}`,
  platform: 'telegram',
  target,
  startedAt: 1,
});
await store.addDelivery({
  sessionKey: config.key,
  platform: 'telegram',
  target,
  text: `reply of ${config.owner}`,
  createdAt: 1,
});
const lane = new PostgresSessionLane(database, { maxConcurrent: 1, pollMs: 20 });
await lane.acquire(config.key);
process.stdout.write(`${JSON.stringify({ type: 'ready' })}\n`);
setInterval(() => {}, 60_000);
