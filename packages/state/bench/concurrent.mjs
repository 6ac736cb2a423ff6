/**
 * Four processes appending to one state.db for a fixed time through `test/support/child-writer.mjs`
 * (each to its own session and all to one shared session), then a count of rows appended, lost
 * and duplicated, read back through the store.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const childScript = fileURLToPath(new URL('../test/support/child-writer.mjs', import.meta.url));
const SHARED = 'bench-shared';

/** Starts one writer; resolves `ready` on its first report and `done` with its final report. */
function startWriter(config) {
  const child = spawn(process.execPath, [childScript, JSON.stringify(config)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const reports = [];
  const ready = new Promise((resolve) => lines.once('line', resolve));
  lines.on('line', (line) => reports.push(JSON.parse(line)));
  const done = new Promise((resolve, reject) => {
    child.on('close', (code) => {
      const final = reports.find((r) => r.type === 'done');
      if (code === 0 && final) resolve(final);
      else reject(new Error(`writer ${config.worker} exited with ${code}`));
    });
  });
  return { child, ready, done };
}

/** Lost and duplicated markers `<prefix>0 … <prefix>(count-1)` among these message rows. */
function tally(rows, prefix, count) {
  const seen = new Map();
  for (const row of rows) {
    const marker = String(row.message.content).split(' ')[0];
    if (!marker.startsWith(prefix)) continue;
    const seq = marker.slice(prefix.length);
    seen.set(seq, (seen.get(seq) ?? 0) + 1);
  }
  let lost = 0;
  let duplicated = 0;
  for (let seq = 0; seq < count; seq++) {
    const times = seen.get(String(seq)) ?? 0;
    if (times === 0) lost++;
    if (times > 1) duplicated += times - 1;
  }
  return { lost, duplicated, unexpected: seen.size - (count - lost) };
}

/** Runs `workers` writer processes for `durationMs` against `dbPath` and counts the outcome. */
export async function concurrentWriters({ openSessionStore, entry, dbPath, workers, durationMs }) {
  const setup = await openSessionStore({ path: dbPath });
  await setup.createSession({ id: SHARED, source: 'gateway' });
  await setup.close();
  const names = Array.from({ length: workers }, (_, i) => `w${i + 1}`);
  const writers = names.map((worker) =>
    startWriter({
      mode: 'concurrent',
      entry,
      dbPath,
      worker,
      sessionId: `${worker}-own`,
      sharedSessionId: SHARED,
      durationMs,
    }),
  );
  await Promise.all(writers.map((w) => w.ready));
  for (const writer of writers) writer.child.stdin.end('go\n');
  const reports = await Promise.all(writers.map((w) => w.done));

  const store = await openSessionStore({ path: dbPath });
  const shared = await store.getMessages(SHARED, { includeInactive: true });
  const result = {
    appended: 0,
    appends: 0,
    lost: 0,
    duplicated: 0,
    unexpected: 0,
    counterMismatches: 0,
  };
  const add = (t) => {
    result.lost += t.lost;
    result.duplicated += t.duplicated;
    result.unexpected += t.unexpected;
  };
  for (const report of reports) {
    const own = await store.getMessages(`${report.worker}-own`, { includeInactive: true });
    add(tally(own, `${report.worker}o`, report.own));
    add(tally(shared, `${report.worker}s`, report.shared));
    const session = await store.getSession(`${report.worker}-own`);
    if (session?.counters.messages !== own.length) result.counterMismatches++;
    result.appended += report.own + report.shared;
    result.appends += report.appends;
  }
  if ((await store.getSession(SHARED))?.counters.messages !== shared.length)
    result.counterMismatches++;
  await store.close();
  return result;
}
