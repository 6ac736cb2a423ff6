/**
 * A writer process for the durability tests and benchmarks: it opens the BUILT store
 * (`dist/index.js`, so it runs under plain `node`) on a shared `state.db` and appends through the
 * real `SessionStore` API, reporting on stdout as JSON lines.
 *
 * Usage: `node child-writer.mjs '<json config>'` with
 *   { mode: 'concurrent' | 'crash', entry, dbPath, worker, sessionId, sharedSessionId?,
 *     durationMs?, progressAfterTurns?, batchSize? }
 *
 * - `concurrent`: creates its own session, prints `ready`, waits for `go` on stdin (so every
 *   writer starts together), then appends turns: one turn is 1–4 messages to its own session and
 *   1–2 messages to the shared session. Every message content starts with a unique marker
 *   `<worker><o|s><seq>`. With `durationMs` (the benchmark) it stops when that time is up;
 *   without, it prints `progress` after `progressAfterTurns` turns and stops at the next stdin
 *   line (`stop`), so a test decides by events, not by a clock, when every writer has done
 *   enough while all the others were writing too. Prints `done` with the counts it wrote.
 * - `crash`: creates `sessionId`, then appends batches of `batchSize` messages forever, printing each
 *   batch's ids only after `appendMessages` resolved (i.e. committed). The parent SIGKILLs it.
 *
 * Exits 1 (with the reason on stderr) if the store misbehaves, e.g. ids that do not increase.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
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

/** The lines the parent writes to stdin, one promise per line, in order. */
function stdinLines() {
  const queued = [];
  const waiting = [];
  let buffer = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buffer += chunk;
    for (let at = buffer.indexOf('\n'); at !== -1; at = buffer.indexOf('\n')) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else queued.push(line);
    }
  });
  return () =>
    queued.length > 0
      ? Promise.resolve(queued.shift())
      : new Promise((resolve) => waiting.push(resolve));
}

/** When the writer stops: at the deadline (benchmark), or at the parent's `stop` line (tests). */
function stopCondition(config, nextLine) {
  if (config.durationMs !== undefined) {
    const deadline = Date.now() + config.durationMs;
    return async () => Date.now() >= deadline;
  }
  let stopped = false;
  void nextLine().then(() => {
    stopped = true;
  });
  // The store's appends resolve without a trip through the event loop (SQLite is synchronous
  // here), so the loop yields once a turn to let the `stop` line in.
  return async () => {
    await yieldToEventLoop();
    return stopped;
  };
}

async function runConcurrent(store, config) {
  const nextLine = stdinLines();
  await store.createSession({ id: config.sessionId, source: 'cli', title: config.worker });
  report({ type: 'ready' });
  await nextLine(); // go
  const shouldStop = stopCondition(config, nextLine);
  const check = idChecker();
  let own = 0;
  let shared = 0;
  let appends = 0;
  for (let turn = 0; !(await shouldStop()); turn++) {
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
    if (turn + 1 === config.progressAfterTurns) report({ type: 'progress', turns: turn + 1 });
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
