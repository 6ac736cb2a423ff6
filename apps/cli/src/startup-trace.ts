/**
 * Start-up phases on stderr, for finding what a slow start spends its time on: with
 * `HERMES_TRACE_STARTUP=1`, each phase prints `hermes startup: <ms since the process started>
 * <phase> (cpu <ms>)`, and the first model request prints when its headers and body leave
 * (Node's fetch reports them on `diagnostics_channel`). Off, every call is one comparison.
 */
import { subscribe } from 'node:diagnostics_channel';
import { writeSync } from 'node:fs';

const enabled = process.env.HERMES_TRACE_STARTUP === '1';
// bin.js and dist/hermes.cjs each hold a copy of this module; the process watches requests once.
const WATCHING = Symbol.for('hermes.startupTrace.watching');

/** Prints one phase mark when tracing is on. */
export function traceStartup(phase: string): void {
  if (!enabled) return;
  const { user, system } = process.cpuUsage();
  const cpu = ((user + system) / 1000).toFixed(0);
  writeSync(2, `hermes startup: ${performance.now().toFixed(1)} ms ${phase} (cpu ${cpu} ms)\n`);
  const flags = process as unknown as Record<symbol, boolean>;
  if (!flags[WATCHING]) {
    flags[WATCHING] = true;
    const once = (channel: string, phaseName: string): void => {
      let seen = false;
      subscribe(channel, () => {
        if (seen) return;
        seen = true;
        traceStartup(phaseName);
      });
    };
    once('undici:request:create', 'first HTTP request created');
    once('undici:client:sendHeaders', 'first HTTP request headers sent');
    once('undici:request:bodySent', 'first HTTP request body sent');
  }
}
