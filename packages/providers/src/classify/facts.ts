/**
 * Turning whatever was thrown — an SDK `APIError`, a plain `{status, body}` object, a Node system
 * error, a fetch `TypeError` with a cause chain, a string — into the few facts the classifier
 * decides on. The response body is outside input, so its shape is checked with zod.
 */
import { isHermesError } from '@hermes/protocol';
import { z } from 'zod';
import type { HeaderLookup } from './retry-after.js';

/** Everything the classifier stages look at, extracted once. */
export interface ErrorFacts {
  /** HTTP status from the error or its causes (or an OpenRouter numeric `error.code`). */
  readonly status: number | undefined;
  readonly header: HeaderLookup;
  /** Structured code from the body (`context_length_exceeded`, `insufficient_quota`), lower-case. */
  readonly code: string | undefined;
  /** Structured type from the body (`overloaded_error`, `rate_limit_error`), lower-case. */
  readonly type: string | undefined;
  /** Every message we found, lower-cased and joined, for phrase matching. */
  readonly text: string;
  /** The single most useful human message (unredacted, untrimmed). */
  readonly display: string;
  /** Node / undici error codes along the cause chain (`ECONNRESET`, `UND_ERR_SOCKET`). */
  readonly errnos: readonly string[];
  /** Error names and constructor names along the cause chain. */
  readonly names: readonly string[];
  /** Hermes error codes along the cause chain (`provider.stale_stream`). */
  readonly hermesCodes: readonly string[];
}

/** How deep to follow `cause`: real chains are 2–3 long; the bound stops cycles. */
const MAX_CHAIN = 6;
/** How much of each message to scan: the signal is at the start, HTML pages can be huge. */
const MAX_PART = 8192;

const optString = z.string().optional().catch(undefined);

/** An error object as OpenAI, Anthropic and OpenRouter send it (`body.error` or a bare one). */
const ErrorObjectSchema = z.object({
  message: optString,
  type: optString,
  code: z.union([z.string(), z.number()]).nullish().catch(undefined),
  metadata: z.object({ raw: optString }).nullish().catch(undefined),
  details: z.object({ error_code: optString }).nullish().catch(undefined),
});
type ErrorObject = z.infer<typeof ErrorObjectSchema>;

const BodySchema = z.object({ error: z.unknown().optional() });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function parseJsonText(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

/** The error object inside a body: `{error: {...}}` (wire shape) or the object itself (SDK). */
function errorObjectOf(body: unknown): ErrorObject | undefined {
  const value = typeof body === 'string' ? parseJsonText(body) : body;
  if (!isRecord(value)) return undefined;
  const wrapper = BodySchema.safeParse(value);
  const nested = wrapper.success ? wrapper.data.error : undefined;
  // Some servers send `{"error": "text"}`: the string is the message.
  if (typeof nested === 'string') return { message: nested };
  const inner = isRecord(nested) ? nested : value;
  const parsed = ErrorObjectSchema.safeParse(inner);
  return parsed.success ? parsed.data : undefined;
}

/** OpenRouter wraps the upstream provider's own error as a JSON string in `metadata.raw`. */
function upstreamOf(outer: ErrorObject | undefined): ErrorObject | undefined {
  const raw = outer?.metadata?.raw;
  return raw === undefined ? undefined : errorObjectOf(raw);
}

function statusOf(value: Record<string, unknown>): number | undefined {
  const response = isRecord(value.response) ? value.response : {};
  for (const candidate of [value.status, value.statusCode, value.status_code, response.status]) {
    if (typeof candidate === 'number' && candidate >= 100 && candidate < 600) return candidate;
  }
  return undefined;
}

function bodyOf(value: Record<string, unknown>): unknown {
  // SDK errors keep the body in `.error`; hand-rolled ones use `.body`, `.data` or `.response`.
  const response = isRecord(value.response) ? value.response : {};
  return value.error ?? value.body ?? value.data ?? response.data ?? response.body;
}

function headerLookupOf(value: Record<string, unknown>): HeaderLookup | undefined {
  const response = isRecord(value.response) ? value.response : {};
  const headers = value.headers ?? response.headers;
  if (typeof Headers !== 'undefined' && headers instanceof Headers) {
    return (name) => headers.get(name) ?? undefined;
  }
  if (!isRecord(headers)) return undefined;
  const lower = new Map<string, string>();
  for (const [key, val] of Object.entries(headers)) {
    if (typeof val === 'string' || typeof val === 'number') lower.set(key.toLowerCase(), `${val}`);
    else if (Array.isArray(val) && typeof val[0] === 'string') lower.set(key.toLowerCase(), val[0]);
  }
  return (name) => lower.get(name);
}

/** The error, its `cause`s, and the first member of an `AggregateError`, outermost first. */
function chainOf(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < MAX_CHAIN) {
    if (chain.includes(current)) break;
    chain.push(current);
    if (!isRecord(current)) break;
    const errors = current.errors;
    current = current.cause ?? (Array.isArray(errors) ? (errors[0] as unknown) : undefined);
  }
  return chain;
}

function clip(text: string): string {
  return text.length > MAX_PART ? text.slice(0, MAX_PART) : text;
}

/** Collected while walking the chain; frozen into {@link ErrorFacts} at the end. */
interface Gathered {
  status: number | undefined;
  header: HeaderLookup | undefined;
  body: unknown;
  /** The outermost message, whole: the display text is redacted before it is cut. */
  firstMessage: string | undefined;
  messages: string[];
  errnos: string[];
  names: string[];
  hermesCodes: string[];
}

function gatherLink(link: unknown, into: Gathered): void {
  if (typeof link === 'string') {
    into.firstMessage ??= link;
    into.messages.push(clip(link));
    return;
  }
  if (!isRecord(link)) return;
  into.status ??= statusOf(link);
  into.header ??= headerLookupOf(link);
  into.body ??= bodyOf(link);
  if (typeof link.message === 'string') {
    into.firstMessage ??= link.message;
    into.messages.push(clip(link.message));
  }
  if (typeof link.name === 'string') into.names.push(link.name);
  const ctor = (link as { constructor?: { name?: unknown } }).constructor?.name;
  if (typeof ctor === 'string' && ctor !== 'Object') into.names.push(ctor);
  const code = link.code;
  if (isHermesError(link)) into.hermesCodes.push(link.code);
  else if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code)) into.errnos.push(code);
}

function codeOf(
  outer: ErrorObject | undefined,
  inner: ErrorObject | undefined,
): string | undefined {
  for (const obj of [inner, outer]) {
    const code = obj?.details?.error_code ?? obj?.code;
    if (typeof code === 'string' && code.trim() !== '') return code.trim().toLowerCase();
  }
  return undefined;
}

/** Extracts the {@link ErrorFacts} of anything thrown. */
export function extractFacts(error: unknown): ErrorFacts {
  const got: Gathered = {
    status: undefined,
    header: undefined,
    body: undefined,
    firstMessage: undefined,
    messages: [],
    errnos: [],
    names: [],
    hermesCodes: [],
  };
  for (const link of chainOf(error)) gatherLink(link, got);
  const outer = errorObjectOf(got.body);
  const inner = upstreamOf(outer);
  // OpenRouter puts the upstream HTTP status in a numeric `error.code`, also mid-stream.
  const numericCode = typeof outer?.code === 'number' ? outer.code : undefined;
  const upstreamStatus =
    numericCode !== undefined && numericCode >= 100 && numericCode < 600 ? numericCode : undefined;
  const status = got.status ?? upstreamStatus;
  const bodyText = typeof got.body === 'string' && outer === undefined ? got.body : '';
  const parts = [...got.messages, outer?.message ?? '', inner?.message ?? '', bodyText];
  const display = inner?.message ?? outer?.message ?? (bodyText || got.firstMessage) ?? '';
  return {
    status,
    header: got.header ?? (() => undefined),
    code: codeOf(outer, inner),
    type: (inner?.type ?? outer?.type)?.toLowerCase(),
    text: parts.map((p) => clip(p).toLowerCase()).join('\n'),
    display,
    errnos: got.errnos,
    names: got.names,
    hermesCodes: got.hermesCodes,
  };
}
