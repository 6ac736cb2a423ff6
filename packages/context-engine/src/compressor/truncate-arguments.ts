/**
 * Shrinks huge tool-call arguments (a whole file passed to `write_file`, say) while keeping them
 * valid JSON: providers such as Anthropic replay arguments as a parsed object, so a cut string
 * would break the request.
 */

/** Longest string value kept whole inside truncated arguments. */
const KEPT_VALUE_CHARS = 500;

/** Truncates every long string inside a parsed JSON value. */
function shrinkValue(value: unknown): unknown {
  if (typeof value === 'string') {
    if (value.length <= KEPT_VALUE_CHARS) return value;
    const dropped = value.length - KEPT_VALUE_CHARS;
    return `${value.slice(0, KEPT_VALUE_CHARS)}…[${dropped} chars truncated by compression]`;
  }
  if (Array.isArray(value)) return value.map(shrinkValue);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shrinkValue(v)]));
  }
  return value;
}

/**
 * `raw` unchanged when it is at most `maxChars` long; otherwise valid JSON with long strings cut
 * (or, for arguments that were not JSON, an object holding the start of the text).
 */
export function truncateArguments(raw: string, maxChars: number): string {
  if (raw.length <= maxChars) return raw;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return JSON.stringify({ truncated_arguments: raw.slice(0, KEPT_VALUE_CHARS) });
  }
  const shrunk = JSON.stringify(shrinkValue(parsed));
  return shrunk.length < raw.length ? shrunk : raw;
}
