/** Cron expressions through croner: 5 fields (minute first) or 6 (second first), in a timezone. */
import { HermesError } from '@hermes/protocol';
import { Cron } from 'croner';

/** Parsed expressions kept: parsing costs ~0.2 ms, evaluating a parsed one ~0.03 ms. */
const MAX_CACHED = 256;
const parsed = new Map<string, Cron>();

/**
 * Croner's reading of `expr` in `timezone`: never scheduled, only evaluated (so one instance can
 * serve every job with that expression). Kept in a small least-recently-used cache.
 */
function cronFor(expr: string, timezone: string | undefined): Cron {
  const key = `${timezone ?? ''}\u0000${expr}`;
  const hit = parsed.get(key);
  if (hit) {
    parsed.delete(key);
    parsed.set(key, hit);
    return hit;
  }
  const options = { paused: true, mode: '5-or-6-parts' } as const;
  const cron = new Cron(expr, timezone === undefined ? options : { ...options, timezone });
  parsed.set(key, cron);
  if (parsed.size > MAX_CACHED) parsed.delete(parsed.keys().next().value as string);
  return cron;
}

/** True when `text` looks like it was meant as a cron expression (5 or 6 fields, or `@daily`). */
export function looksLikeCron(text: string): boolean {
  if (text.startsWith('@')) return true;
  const fields = text.split(/\s+/);
  return fields.length >= 5 && fields.length <= 7;
}

/** `text` with runs of whitespace collapsed, as it is stored. */
export function normalizeCron(text: string): string {
  return text.trim().split(/\s+/).join(' ');
}

/**
 * Checks that croner accepts `expr` and can compute a next run in `timezone`; returns croner's
 * reason when it does not (the caller names the expression).
 */
export function cronProblem(expr: string, timezone: string | undefined): string | undefined {
  try {
    cronFor(expr, timezone).nextRun();
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return message.replace(/^CronPattern:\s*/, '');
  }
}

/** The first run of `expr` strictly after `after` in `timezone`, or null when there is none. */
export function nextCronRun(
  expr: string,
  after: number,
  timezone: string | undefined,
): number | null {
  let next: Date | null;
  try {
    next = cronFor(expr, timezone).nextRun(new Date(after));
  } catch (error) {
    throw new HermesError('cron.bad_schedule', `cron expression "${expr}" cannot be evaluated`, {
      details: { expr, timezone },
      cause: error,
    });
  }
  return next ? next.getTime() : null;
}
