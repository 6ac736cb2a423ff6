/**
 * The one HTTP path every search backend takes: a timeout on top of the caller's abort signal,
 * errors that name the backend and the HTTP status (never a key or a header), and the body
 * validated with the backend's zod schema before anything reads it.
 */
import { z } from 'zod';
import { CoreToolError } from '../core/errors.js';

/** Default time one search may take, in milliseconds. */
export const DEFAULT_SEARCH_TIMEOUT_MS = 15_000;

/** A `fetch` implementation (tests and hosts may inject one; default the global). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/**
 * The answer shape SearXNG and Tavily share: `results[]` of `{title, url, content}` (a missing
 * title becomes `''`; `content` is the snippet and may be absent).
 */
export const TitleUrlContentResultsSchema = z.object({
  results: z.array(
    z.object({
      title: z.string().default(''),
      url: z.string(),
      content: z.string().nullish(),
    }),
  ),
});

/** One request a backend makes. */
export interface SearchRequest<T> {
  /** The backend's name, for error messages (`brave`). */
  readonly backend: string;
  readonly url: string;
  readonly init: RequestInit;
  /** The shape of a good answer. */
  readonly schema: z.ZodType<T>;
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly fetch?: FetchLike | undefined;
}

/** The URL without query or credentials: safe to show (a SearXNG URL may carry a token). */
function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return 'the configured URL';
  }
}

async function send<T>(request: SearchRequest<T>, signal: AbortSignal): Promise<Response> {
  const doFetch = request.fetch ?? globalThis.fetch;
  try {
    return await doFetch(request.url, { ...request.init, signal });
  } catch (error) {
    if (request.signal.aborted) {
      throw new CoreToolError(`${request.backend} search was interrupted.`);
    }
    if (signal.aborted) {
      throw new CoreToolError(
        `${request.backend} search timed out after ${request.timeoutMs / 1000} s.`,
      );
    }
    // The cause's text is the network layer's (connection refused, DNS); it never holds our key.
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
    throw new CoreToolError(
      `${request.backend} search could not reach ${shownUrl(request.url)}${cause ? ` (${cause})` : ''}.`,
    );
  }
}

/**
 * Sends `request` and returns its JSON body parsed with `request.schema`.
 *
 * @throws CoreToolError naming the backend: unreachable, timed out, interrupted, a non-2xx status,
 * or an answer that is not the expected JSON.
 */
export async function searchJson<T>(request: SearchRequest<T>): Promise<T> {
  const signal = AbortSignal.any([request.signal, AbortSignal.timeout(request.timeoutMs)]);
  const response = await send(request, signal);
  if (!response.ok) {
    await response.body?.cancel();
    const hint = response.status === 401 || response.status === 403 ? ' (check the API key)' : '';
    throw new CoreToolError(`${request.backend} search failed: HTTP ${response.status}${hint}.`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    if (request.signal.aborted)
      throw new CoreToolError(`${request.backend} search was interrupted.`);
    throw new CoreToolError(`${request.backend} search answered with something that is not JSON.`);
  }
  const parsed = request.schema.safeParse(body);
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path.join('.') || 'the body';
    throw new CoreToolError(
      `${request.backend} search answered in an unexpected shape (at ${where}).`,
    );
  }
  return parsed.data;
}
