/**
 * A writer process for the gateway store's durability tests. It runs under plain `node` and loads
 * the TypeScript sources of `SqliteGatewayStore` through Vite's module runner (the same machinery
 * vitest uses), so it tests the code as written, with no build step and no stale `dist/`.
 *
 * Usage: `node gateway-store-child.mjs '<json config>'` with { mode, path, worker, textBytes? }:
 * - `crash`: forever, one delivery (text of `textBytes`), one route and one running turn per
 *   step; prints `{type:'committed', step, id}` only after all three resolved (were committed).
 *   The parent SIGKILLs it.
 * - `concurrent`: prints `ready`, waits for `go` on stdin, then adds deliveries in a loop, printing
 *   `{type:'started'}` after the first, until a `stop` line arrives; then prints
 *   `{type:'done', ids}` and exits 0.
 * Every report is one JSON line on stdout.
 */
import { createInterface } from 'node:readline';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const config = JSON.parse(process.argv[2]);
const conditions = ['@hermes/source', 'node', 'import', 'module', 'default'];
const source = fileURLToPath(new URL('../../src/store/sqlite-gateway-store.ts', import.meta.url));
const { module } = await runnerImport(source, {
  configFile: false,
  logLevel: 'error',
  resolve: { conditions },
  ssr: { resolve: { conditions } },
});
const store = module.SqliteGatewayStore.open({ path: config.path });

function report(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

const target = { chatId: `chat-${config.worker}` };

async function crash() {
  const filler = 'x'.repeat(config.textBytes ?? 65_536);
  for (let step = 0; ; step++) {
    const id = await store.addDelivery({
      sessionKey: `k-${config.worker}`,
      platform: 'telegram',
      target,
      text: `${config.worker}:${step}:${filler}`,
      createdAt: step,
    });
    await store.setRoute({
      key: `route-${config.worker}-${step}`,
      sessionId: `s-${step}`,
      platform: 'telegram',
      createdAt: step,
      lastActiveAt: step,
    });
    await store.beginTurn({
      sessionKey: `turn-${config.worker}-${step}`,
      sessionId: `s-${step}`,
      platform: 'telegram',
      target,
      startedAt: step,
    });
    report({ type: 'committed', step, id });
  }
}

async function concurrent() {
  const lines = createInterface({ input: process.stdin });
  let stopped = false;
  let go;
  const started = new Promise((resolve) => {
    go = resolve;
  });
  lines.on('line', (line) => {
    if (line === 'go') go();
    if (line === 'stop') stopped = true;
  });
  report({ type: 'ready' });
  await started;
  const ids = [];
  for (let n = 0; !stopped; n++) {
    ids.push(
      await store.addDelivery({
        sessionKey: `k-${config.worker}`,
        platform: 'telegram',
        target,
        text: `${config.worker}:${n}`,
        createdAt: n,
      }),
    );
    if (n === 0) report({ type: 'started' });
    await yieldToEventLoop(); // let the `stop` line in
  }
  await store.close();
  report({ type: 'done', ids });
  lines.close();
}

if (config.mode === 'crash') await crash();
else await concurrent();
