/** Knowing whether a call already showed the caller anything, before deciding to repeat it. */
import type { ChatOptions } from '../chat-request.js';

/** Call options that pass events through, and a probe telling whether any event passed. */
export interface TrackedOptions {
  /** The caller's options with `onEvent` wrapped; hand these to the inner provider. */
  readonly options: ChatOptions;
  /** True once the inner call emitted any stream event to the caller. */
  readonly emitted: () => boolean;
}

/**
 * Wraps `options.onEvent` so wrappers (retry, credential rotation, fallback) can tell whether an
 * attempt already reached the caller: once an observer has shown output, repeating the call
 * would show it twice, so those wrappers stop and rethrow instead.
 */
export function trackEmission(options: ChatOptions): TrackedOptions {
  let emitted = false;
  const { signal, onEvent } = options;
  const tracked: ChatOptions = {
    ...(signal === undefined ? {} : { signal }),
    ...(onEvent === undefined
      ? {}
      : {
          onEvent: (event) => {
            emitted = true;
            onEvent(event);
          },
        }),
  };
  return { options: tracked, emitted: () => emitted };
}
