/** Small measuring helpers shared by the gateway's benchmarks. */
import { writeHeapSnapshot } from 'node:v8';

/** Full garbage collections (needs `--expose-gc`), then the process's memory. */
export async function settleMemory() {
  for (let i = 0; i < 6; i += 1) {
    globalThis.gc?.();
    // Lets finalizers and closes queued by the collection run before the next one.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage();
}

/** Exits with a hint when the process was not started with `--expose-gc`. */
export function requireGc(script) {
  if (typeof globalThis.gc === 'function') return;
  console.error(`run with: node --expose-gc bench/${script}`);
  process.exit(2);
}

export const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** Writes a heap snapshot into `dir` (for a diff in Chrome DevTools' Memory tab). */
export function snapshot(dir, label) {
  return writeHeapSnapshot(`${dir}/${label}.heapsnapshot`);
}

/** The `p`th percentile of ascending `sorted`. */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** A numeric argument `name=value` (or the first bare number for `name` undefined). */
export function numberArg(name, fallback) {
  const args = process.argv.slice(2);
  const found = name
    ? args.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1]
    : args.find((arg) => /^\d+$/.test(arg));
  return found === undefined ? fallback : Number(found);
}

/** Where this machine stands, for the record next to the numbers. */
export async function machineLine() {
  const os = await import('node:os');
  const load = os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
  return `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), load ${load}`;
}
