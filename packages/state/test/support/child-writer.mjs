/**
 * A writer process for the durability tests and benchmarks: it opens the BUILT store
 * (`dist/index.js`, so it runs under plain `node`) on a shared `state.db` and appends through the
 * real `SessionStore` API, reporting on stdout as JSON lines.
 *
 * Usage: `node child-writer.mjs '<json config>'` with
 *   { mode: 'concurrent' | 'crash', entry, dbPath, worker, sessionId, sharedSessionId?,
 *     durationMs?, batchSize? }
 *
 * - `concurrent`: creates its own session, prints `ready`, waits for `go` on stdin (so every
 *   writer starts together), then until `durationMs` elapses appends one turn of 1–4 messages to
 *   its own session and 1–2 messages to the shared session. Every message content starts with a
 *   unique marker `<worker><o|s><seq>`. Prints `done` with the counts it wrote.
 * - `crash`: creates `sessionId`, then appends batches of `batchSize` messages forever, printing each
 *   batch's ids only after `appendMessages` resolved (i.e. committed). The parent SIGKILLs it.
 *
 * Exits 1 (with the reason on stderr) if the store misbehaves, e.g. ids that do not increase.
 */
import { pathToFileURL } from 'node:url';

const FILLER = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];

/** Writes one JSON line; stdout is a pipe, which Node writes synchronously on Linux. */
function report(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

function fail(reason) {
  process.stderr.write(`child-writer: ${reason}\n`);
  process.exit(1);
}

/** The message at position `seq` of a synthetic conversation: user, tool call, result, answer. */
function makeMessage(marker, seq, previousMarker) {
  const text = `${marker} ${FILLER[seq % FILLER.length]} ${FILLER[(seq * 7) % FILLER.length]}`;
  switch (seq % 4) {
    case 0:
      return { role: 'user', content: text };
    case 1:
      return {
        role: 'assistant',
        content: text,
        tool_calls: [
          {
            id: `call_${marker}`,
            type: 'function',
            function: {
              name: 'terminal',
              arguments: JSON.stringify({ command: `echo ${marker}` }),
            },
          },
        ],
      };
    case 2:
      return {
        role: 'tool',
        content: text,
        tool_call_id: `call_${previousMarker}`,
        name: 'terminal',
      };
    default:
      return { role: 'assistant', content: text };
  }
}

/** `count` consecutive messages with markers `<prefix><seq>` starting at `start`. */
function makeBatch(prefix, start, count) {
  const batch = [];
  for (let seq = start; seq < start + count; seq++) {
    batch.push(makeMessage(`${prefix}${seq}`, seq, `${prefix}${seq - 1}`));
  }
  return batch;
}

/** Tracks that every id this process receives is larger than the one before. */
function idChecker() {
  let last = 0;
  return (ids, expected) => {
    if (ids.length !== expected) fail(`appendMessages returned ${ids.length} ids for ${expected}`);
    for (const id of ids) {
      if (!(id > last)) fail(`id ${id} after ${last}: ids must strictly increase`);
      last = id;
    }
  };
}

/** Resolves when the parent writes a line to stdin. */
function waitForGo() {
  return new Promise((resolve) => {
    process.stdin.setEncoding('utf8');
    process.stdin.once('data', () => resolve());
  });
}

async function runConcurrent(store, config) {
  await store.createSession({ id: config.sessionId, source: 'cli', title: config.worker });
  report({ type: 'ready' });
  await waitForGo();
  const check = idChecker();
  const deadline = Date.now() + config.durationMs;
  let own = 0;
  let shared = 0;
  let appends = 0;
  for (let turn = 0; Date.now() < deadline; turn++) {
    const ownCount = 1 + (turn % 4);
    check(
      await store.appendMessages(config.sessionId, makeBatch(`${config.worker}o`, own, ownCount)),
      ownCount,
    );
    own += ownCount;
    const sharedCount = 1 + (turn % 2);
    const sharedBatch = makeBatch(`${config.worker}s`, shared, sharedCount);
    check(await store.appendMessages(config.sharedSessionId, sharedBatch), sharedCount);
    shared += sharedCount;
    appends += 2;
  }
  report({ type: 'done', worker: config.worker, own, shared, appends });
}

async function runCrash(store, config) {
  await store.createSession({ id: config.sessionId, source: 'cli', title: 'crash' });
  report({ type: 'ready' });
  // A safety net: a parent that died before its SIGKILL must not leave this loop running.
  setTimeout(() => fail('crash writer was never killed'), 120_000).unref();
  const check = idChecker();
  const size = config.batchSize;
  for (let batch = 0; ; batch++) {
    const ids = await store.appendMessages(config.sessionId, makeBatch(`k${batch}x`, 0, size));
    check(ids, size);
    report({ type: 'committed', batch, ids });
  }
}

async function main() {
  const config = JSON.parse(process.argv[2] ?? '{}');
  const built = await import(pathToFileURL(config.entry).href);
  if (typeof built.openSessionStore !== 'function') {
    fail(`${config.entry} does not export openSessionStore; build packages/state (npx tsup)`);
  }
  const store = await built.openSessionStore({ path: config.dbPath });
  if (config.mode === 'crash') await runCrash(store, config);
  else await runConcurrent(store, config);
  await store.close();
}

main().catch((error) =>
  fail(error instanceof Error ? (error.stack ?? error.message) : String(error)),
);
