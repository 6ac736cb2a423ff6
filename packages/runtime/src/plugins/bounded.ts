/** Waiting for a plugin's code at most so long, and saying what it threw. */

/** How a bounded step ended. */
export type Bounded<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly timedOut: true }
  | { readonly ok: false; readonly timedOut: false; readonly error: unknown };

/** Waits for `work` at most `timeoutMs`; a rejection is returned, never thrown. */
export async function bounded<T>(work: () => Promise<T>, timeoutMs: number): Promise<Bounded<T>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Bounded<T>>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, timedOut: true }), timeoutMs);
  });
  const run = (async (): Promise<Bounded<T>> => {
    try {
      return { ok: true, value: await work() };
    } catch (error) {
      return { ok: false, timedOut: false, error };
    }
  })();
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The message of a thrown value, for a status line. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
