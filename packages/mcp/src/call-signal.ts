/**
 * A per-request abort signal tied to the turn's signal. The SDK adds an abort listener to every
 * request's signal and never removes it, so handing it the turn's long-lived `ctx.signal` would
 * pile up one listener per call; a child signal that is released after the call avoids that.
 */

/** A child of `parent` for one request; call `release()` when the request has settled. */
export function requestSignal(parent: AbortSignal): { signal: AbortSignal; release: () => void } {
  const child = new AbortController();
  if (parent.aborted) {
    child.abort(parent.reason);
    return { signal: child.signal, release: () => undefined };
  }
  const forward = () => child.abort(parent.reason);
  parent.addEventListener('abort', forward, { once: true });
  return { signal: child.signal, release: () => parent.removeEventListener('abort', forward) };
}
