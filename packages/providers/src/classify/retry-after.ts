/**
 * How long a service asked us to wait, from its headers (`retry-after`, `retry-after-ms`,
 * Anthropic's `anthropic-ratelimit-*-reset`) or, failing those, from its words ("try again in
 * 5 minutes", "resets at 2025-06-01T12:00:00Z").
 */

/** Reads one response header by lower-case name. */
export type HeaderLookup = (name: string) => string | undefined;

/** The Anthropic limits whose `-reset` header says when an exhausted limit refills. */
const ANTHROPIC_LIMITS = ['requests', 'tokens', 'input-tokens', 'output-tokens'] as const;

const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  millisecond: 1,
  milliseconds: 1,
  s: 1000,
  sec: 1000,
  secs: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  min: 60_000,
  mins: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  hrs: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
};

function untilDate(text: string, now: number): number | undefined {
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/** `retry-after` is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
function parseRetryAfter(value: string, now: number): number | undefined {
  const trimmed = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  return untilDate(trimmed, now);
}

/** The latest reset among Anthropic limits that are actually exhausted (remaining 0). */
function anthropicReset(header: HeaderLookup, now: number): number | undefined {
  let wait: number | undefined;
  for (const limit of ANTHROPIC_LIMITS) {
    // Every response carries these headers; only an exhausted limit explains a refusal.
    if (header(`anthropic-ratelimit-${limit}-remaining`)?.trim() !== '0') continue;
    const reset = header(`anthropic-ratelimit-${limit}-reset`);
    const ms = reset === undefined ? undefined : untilDate(reset.trim(), now);
    if (ms !== undefined) wait = Math.max(wait ?? 0, ms);
  }
  return wait;
}

/**
 * The wait the headers ask for, in ms: `retry-after-ms` (OpenAI's precise form) wins over
 * `retry-after`, which wins over Anthropic's per-limit reset times.
 */
export function retryAfterFromHeaders(header: HeaderLookup, now: number): number | undefined {
  const precise = header('retry-after-ms');
  if (precise !== undefined && /^\s*\d+(?:\.\d+)?\s*$/.test(precise)) {
    return Math.round(Number(precise));
  }
  const plain = header('retry-after');
  const fromPlain = plain === undefined ? undefined : parseRetryAfter(plain, now);
  return fromPlain ?? anthropicReset(header, now);
}

/** "1m30s", "6.5s", "5 minutes", "2 hours and 10 minutes" → ms; undefined on an unknown unit. */
function parseDuration(text: string): number | undefined {
  let total = 0;
  let parts = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)/g)) {
    const scale = unit === undefined ? undefined : UNIT_MS[unit];
    if (scale === undefined || amount === undefined) break;
    total += Number(amount) * scale;
    parts += 1;
  }
  return parts > 0 ? Math.round(total) : undefined;
}

const WAIT_IN =
  /(?:try again|retry|resets?|available|wait)\s+(?:in|after)\s+(\d+(?:\.\d+)?\s*[a-z]+(?:[\s,]*(?:and\s+)?\d+(?:\.\d+)?\s*[a-z]+){0,3})/i;
const RESETS_AT =
  /resets?\s+(?:at|on)\s+(\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s?(?:z|utc|[+-]\d{2}:?\d{2})?|\d{10}(?:\d{3})?)/i;

function resetsAt(stamp: string, now: number): number | undefined {
  if (/^\d+$/.test(stamp)) {
    // Epoch seconds (10 digits) or milliseconds (13 digits).
    const at = stamp.length > 10 ? Number(stamp) : Number(stamp) * 1000;
    return Math.max(0, at - now);
  }
  const iso = stamp
    .toUpperCase()
    .replace(' ', 'T')
    .replace(/\s?UTC$/, 'Z');
  return untilDate(iso, now);
}

/** The wait a message spells out ("try again in 5 minutes", "resets at <ISO time>"), in ms. */
export function retryAfterFromText(text: string, now: number): number | undefined {
  const spelled = WAIT_IN.exec(text)?.[1];
  const fromSpelled = spelled === undefined ? undefined : parseDuration(spelled.toLowerCase());
  if (fromSpelled !== undefined) return fromSpelled;
  const stamp = RESETS_AT.exec(text)?.[1];
  return stamp === undefined ? undefined : resetsAt(stamp, now);
}
