/**
 * What ends a running gateway: SIGTERM or SIGINT (a service manager, Ctrl-C), or an error
 * nothing caught. Read from a {@link ProcessEvents} source — `process` by default, an
 * `EventEmitter` in tests — and every listener is removed again when the run ends.
 */

/** The signals the gateway drains on. */
export type StopSignal = 'SIGTERM' | 'SIGINT';

/** The events the gateway listens to; `process` is one. */
export interface ProcessEvents {
  on(event: StopSignal, listener: (signal: StopSignal) => void): unknown;
  on(
    event: 'uncaughtException' | 'unhandledRejection',
    listener: (error: unknown) => void,
  ): unknown;
  off(event: StopSignal, listener: (signal: StopSignal) => void): unknown;
  off(
    event: 'uncaughtException' | 'unhandledRejection',
    listener: (error: unknown) => void,
  ): unknown;
}

/** Why the gateway is stopping. */
export type StopReason =
  | { readonly kind: 'signal'; readonly signal: StopSignal }
  | { readonly kind: 'error'; readonly error: unknown };

/** The exit code of a process ended by `signal` (128 + its number): 130 SIGINT, 143 SIGTERM. */
export function signalExitCode(signal: StopSignal): number {
  return signal === 'SIGINT' ? 130 : 143;
}

/** Listens for the stop events until {@link StopWatch.dispose}. */
export class StopWatch {
  readonly #events: ProcessEvents;
  readonly #first: Promise<StopReason>;
  readonly #again: Promise<StopSignal>;
  #resolveFirst: (reason: StopReason) => void = () => {};
  #resolveAgain: (signal: StopSignal) => void = () => {};
  #stopping = false;
  /** Errors reported after the first stop reason (logged by the caller, never fatal twice). */
  readonly lateErrors: unknown[] = [];

  readonly #onSignal = (signal: StopSignal): void => {
    if (this.#stopping) this.#resolveAgain(signal);
    else this.#stop({ kind: 'signal', signal });
  };

  readonly #onError = (error: unknown): void => {
    if (this.#stopping) this.lateErrors.push(error);
    else this.#stop({ kind: 'error', error });
  };

  constructor(events: ProcessEvents) {
    this.#events = events;
    this.#first = new Promise((resolve) => {
      this.#resolveFirst = resolve;
    });
    this.#again = new Promise((resolve) => {
      this.#resolveAgain = resolve;
    });
    events.on('SIGTERM', this.#onSignal);
    events.on('SIGINT', this.#onSignal);
    events.on('uncaughtException', this.#onError);
    events.on('unhandledRejection', this.#onError);
  }

  /** Resolves with the first signal or uncaught error. */
  get stopped(): Promise<StopReason> {
    return this.#first;
  }

  /** Resolves with a signal that arrives after the first stop reason (exit at once). */
  get signalledAgain(): Promise<StopSignal> {
    return this.#again;
  }

  /** Stops on behalf of the caller (an adapter that failed at start). */
  stop(reason: StopReason): void {
    if (!this.#stopping) this.#stop(reason);
  }

  /** Removes every listener. */
  dispose(): void {
    this.#events.off('SIGTERM', this.#onSignal);
    this.#events.off('SIGINT', this.#onSignal);
    this.#events.off('uncaughtException', this.#onError);
    this.#events.off('unhandledRejection', this.#onError);
  }

  #stop(reason: StopReason): void {
    this.#stopping = true;
    this.#resolveFirst(reason);
  }
}
