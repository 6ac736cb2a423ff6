/**
 * Fetches one page for `web_extract` with undici: manual redirects (each hop re-checked against
 * the private-network rule), a wall-clock timeout, and a byte cap on the body.
 */
import { CoreToolError } from './errors.js';
import { assertFetchableUrl } from './url-safety.js';

/** Limits and policy for fetching. */
export interface FetchLimits {
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly maxRedirects: number;
  readonly allowPrivateNetwork: boolean;
  readonly userAgent: string;
}

/** A fetched body, possibly cut at `maxBytes`. */
export interface FetchedPage {
  readonly finalUrl: string;
  readonly contentType: string;
  readonly body: Uint8Array;
  readonly truncated: boolean;
}

async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (!body) return { bytes: new Uint8Array(), truncated: false };
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - total;
    if (value.byteLength > room) {
      chunks.push(value.subarray(0, room));
      total += room;
      truncated = true;
      await reader.cancel();
      break;
    }
    chunks.push(value);
    total += value.byteLength;
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { bytes, truncated };
}

/**
 * Fetches `url`, following up to `limits.maxRedirects` redirects.
 *
 * @throws CoreToolError for a refused URL, an HTTP error status, too many redirects or a timeout.
 */
export async function fetchPage(
  url: string,
  limits: FetchLimits,
  signal: AbortSignal,
): Promise<FetchedPage> {
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(limits.timeoutMs)]);
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    throw new CoreToolError(`"${url}" is not a valid URL; give an absolute http(s) URL.`);
  }
  for (let hop = 0; hop <= limits.maxRedirects; hop += 1) {
    await assertFetchableUrl(current, limits.allowPrivateNetwork);
    // undici is imported on first use: it takes ~170 ms to load, and most sessions never fetch.
    const { fetch } = await import('undici');
    const response = await fetch(current, {
      redirect: 'manual',
      signal: deadline,
      headers: {
        'user-agent': limits.userAgent,
        accept: 'text/html,text/plain,application/json;q=0.9,*/*;q=0.5',
      },
    }).catch((error: unknown) => {
      if (signal.aborted) throw new CoreToolError('web_extract was interrupted.');
      if (deadline.aborted)
        throw new CoreToolError(`Timed out after ${limits.timeoutMs} ms fetching ${current.host}.`);
      throw new CoreToolError(
        `Could not fetch ${current.host}: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      current = new URL(location, current);
      continue;
    }
    if (response.status >= 400) {
      await response.body?.cancel();
      throw new CoreToolError(
        `HTTP ${response.status} ${response.statusText} from ${current.toString()}`,
      );
    }
    const { bytes, truncated } = await readCapped(response.body, limits.maxBytes);
    return {
      finalUrl: current.toString(),
      contentType: response.headers.get('content-type') ?? '',
      body: bytes,
      truncated,
    };
  }
  throw new CoreToolError(`Too many redirects (more than ${limits.maxRedirects}) fetching ${url}.`);
}
