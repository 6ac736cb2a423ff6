/** Small helpers shared by the core tool files. */
import type { ToolSpec } from '../tool-spec.js';

/**
 * Erases a tool's argument type so specs with different schemas fit in one `ToolSpec[]`. Safe
 * because dispatch validates arguments with the spec's own zod schema before calling the handler.
 */
export function eraseArgs<Args>(spec: ToolSpec<Args>): ToolSpec {
  return spec as unknown as ToolSpec;
}

/**
 * Keeps the head and tail of `text` within `maxChars`, with a note saying how much was cut, so
 * both the start of an output and its final status survive.
 */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const note = `\n… [${text.length - maxChars} characters omitted] …\n`;
  const room = Math.max(0, maxChars - note.length);
  const head = Math.floor(room * 0.4);
  return `${text.slice(0, head)}${note}${text.slice(text.length - (room - head))}`;
}

/** Races `promise` against `signal`, rejecting with an interruption error when it fires. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal, what: string): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error(`${what} was interrupted`));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error(`${what} was interrupted`));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
