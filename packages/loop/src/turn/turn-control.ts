/**
 * The out-of-band controls a caller may use while a turn runs — interrupt, steer, redirect — and
 * the abort signals they drive. Safe to call from any callback at any time; the turn reads them at
 * fixed points (the gate, the injection step, around each tool).
 */

/** What the turn is doing now; decides what `redirect` means. */
export type TurnPhase = 'idle' | 'prologue' | 'model' | 'response' | 'tools' | 'finalize';

/** Holds one agent's pending signals across its turns. */
export class TurnControl {
  #phase: TurnPhase = 'idle';
  #turnAbort = new AbortController();
  #requestAbort: AbortController | undefined;
  #unlinkRequest: (() => void) | undefined;
  #interruptRequested = false;
  #steers: string[] = [];
  #redirect: string | undefined;

  /** The current phase. */
  get phase(): TurnPhase {
    return this.#phase;
  }

  /** True once `interrupt()` was called in this turn. */
  get interruptRequested(): boolean {
    return this.#interruptRequested;
  }

  /** Aborted by `interrupt()`: reaches the model call, running tools and children. */
  get signal(): AbortSignal {
    return this.#turnAbort.signal;
  }

  /** Starts a turn: fresh abort signal, interrupt cleared; queued steers are kept. */
  beginTurn(): void {
    this.#turnAbort = new AbortController();
    this.#interruptRequested = false;
    this.#redirect = undefined;
    this.#phase = 'prologue';
  }

  /** Records the phase the turn entered. */
  enter(phase: TurnPhase): void {
    this.#phase = phase;
  }

  /**
   * Stops the running turn: the model call is aborted, running tools are killed, and the turn
   * ends at its next check with an `interrupted_*` exit reason. A no-op between turns.
   */
  interrupt(): void {
    if (this.#phase === 'idle') return;
    this.#interruptRequested = true;
    this.#turnAbort.abort(new Error('interrupted by the user'));
  }

  /**
   * Adds a note the model sees at its next request, appended to the latest tool result (never a
   * new user message). Kept until a tool message exists.
   */
  steer(text: string): boolean {
    const note = text.trim();
    if (!note) return false;
    this.#steers.push(note);
    return true;
  }

  /**
   * Corrects the turn while the model is answering: the in-flight request is abandoned and the
   * correction becomes a user message in the same turn. While tools run it degrades to a steer;
   * with no request in flight it does nothing and returns false (the caller then interrupts or
   * queues a new turn).
   */
  redirect(text: string): boolean {
    const note = text.trim();
    if (!note) return false;
    if (this.#phase === 'tools') return this.steer(note);
    if (this.#phase !== 'model' || !this.#requestAbort) return false;
    this.#redirect = note;
    this.#requestAbort.abort(new Error('redirected by the user'));
    return true;
  }

  /**
   * A signal for one model request: aborted by interrupt or by redirect. One controller with a
   * listener on the turn signal — cheaper per iteration than `AbortSignal.any`, whose combined
   * signals stay reachable from their sources until collected.
   */
  beginRequest(): AbortSignal {
    const request = new AbortController();
    this.#requestAbort = request;
    this.#phase = 'model';
    const turn = this.#turnAbort.signal;
    if (turn.aborted) request.abort(turn.reason);
    else {
      this.#unlinkRequest = () => turn.removeEventListener('abort', forward);
      const forward = () => request.abort(turn.reason);
      turn.addEventListener('abort', forward, { once: true });
    }
    return request.signal;
  }

  /** The request finished (or failed). */
  endRequest(): void {
    this.#unlinkRequest?.();
    this.#unlinkRequest = undefined;
    this.#requestAbort = undefined;
  }

  /** Takes the queued steer notes, joined by newlines; undefined when none. */
  drainSteer(): string | undefined {
    if (this.#steers.length === 0) return undefined;
    const text = this.#steers.join('\n');
    this.#steers = [];
    return text;
  }

  /** Puts a steer back (no tool message existed to carry it). */
  restoreSteer(text: string): void {
    this.#steers.unshift(text);
  }

  /** Whether a redirect is waiting. */
  get hasRedirect(): boolean {
    return this.#redirect !== undefined;
  }

  /** Takes the pending redirect, if any. */
  drainRedirect(): string | undefined {
    const text = this.#redirect;
    this.#redirect = undefined;
    return text;
  }

  /** Ends the turn; returns steers that never reached the model. */
  endTurn(): string | undefined {
    this.#phase = 'idle';
    this.#interruptRequested = false;
    this.#requestAbort = undefined;
    return this.drainSteer();
  }
}
