/**
 * The safety state around automatic compression, on an injected clock: summarizer backoff
 * (60 → 300 → 900 s), the ineffective-compression breaker (two in a row, then a probe every
 * 5 minutes), the structural idle period (nothing compressible: retry after 5 minutes), and the
 * per-turn attempt counter that only real usage under the threshold re-arms.
 */

/** Summarizer backoff steps after consecutive failures, in milliseconds. */
export const SUMMARIZER_BACKOFF_MS = [60_000, 300_000, 900_000] as const;
/** Consecutive ineffective compressions that trip the breaker. */
export const BREAKER_TRIP_COUNT = 2;
/** How often a tripped breaker lets one compression through. */
export const BREAKER_PROBE_MS = 300_000;
/** How long to wait after finding nothing compressible. */
export const STRUCTURAL_IDLE_MS = 300_000;

/** State that survives a restart when the host persists it. */
export interface GuardSnapshot {
  /** Until when the summarizer is skipped (fallback summaries only); `null` when not. */
  readonly summarizerCooldownUntil: number | null;
  /** Consecutive ineffective compressions. */
  readonly ineffectiveStreak: number;
}

/** The breaker, backoff and attempt bookkeeping of one engine. */
export class FailureGuard {
  private cooldownUntil: number | null = null;
  private failures = 0;
  private lastFailure: string | undefined;
  private streak = 0;
  private lastProbeAt: number | null = null;
  private idleUntil: number | null = null;
  private attemptsUsed = 0;
  private awaitingVerification = false;

  constructor(
    private readonly now: () => number,
    private readonly maxAttempts: number,
  ) {}

  /** Whether an automatic compression may run now (attempts left, not idle, breaker closed or due a probe). */
  allowsAutomatic(): boolean {
    const now = this.now();
    if (this.attemptsUsed >= this.maxAttempts) return false;
    if (this.idleUntil !== null && now < this.idleUntil) return false;
    if (this.streak < BREAKER_TRIP_COUNT) return true;
    if (this.lastProbeAt !== null && now - this.lastProbeAt < BREAKER_PROBE_MS) return false;
    return true;
  }

  /** Whether the breaker is tripped. */
  get tripped(): boolean {
    return this.streak >= BREAKER_TRIP_COUNT;
  }

  /** Whether another attempt fits in this turn. */
  get hasAttemptLeft(): boolean {
    return this.attemptsUsed < this.maxAttempts;
  }

  /** Attempts used since the last re-arm. */
  get attempts(): number {
    return this.attemptsUsed;
  }

  /** Counts one compression attempt; a tripped breaker records it as its probe. */
  beginAttempt(): void {
    this.attemptsUsed++;
    if (this.tripped) this.lastProbeAt = this.now();
  }

  /** Whether the summarizer may be called now (not backing off). */
  summarizerAvailable(): boolean {
    return this.cooldownUntil === null || this.now() >= this.cooldownUntil;
  }

  /** The summarizer failed (`reason`: its secret-free error class): back off for the next step. */
  summarizerFailed(reason?: string): void {
    const step = Math.min(this.failures, SUMMARIZER_BACKOFF_MS.length - 1);
    this.cooldownUntil = this.now() + (SUMMARIZER_BACKOFF_MS[step] as number);
    this.failures++;
    this.lastFailure = reason;
  }

  /** The summarizer succeeded: clear the backoff. */
  summarizerSucceeded(): void {
    this.cooldownUntil = null;
    this.failures = 0;
    this.lastFailure = undefined;
  }

  /**
   * Why the summarizer is skipped right now, for warnings and the fallback note, such as
   * "summarizer failed 2 times in a row (last: TimeoutError); retrying in 240 s"; `undefined`
   * when it is not backing off.
   */
  backoffReason(): string | undefined {
    if (this.summarizerAvailable() || this.cooldownUntil === null) return undefined;
    const seconds = Math.ceil((this.cooldownUntil - this.now()) / 1_000);
    const last = this.lastFailure === undefined ? '' : ` (last: ${this.lastFailure})`;
    // After a restart only the backoff end survives, not the count.
    const failed =
      this.failures === 0
        ? 'summarizer failed earlier'
        : `summarizer failed ${this.failures} ${this.failures === 1 ? 'time' : 'times in a row'}`;
    return `${failed}${last}; retrying in ${seconds} s`;
  }

  /** Nothing was compressible: stay quiet for a while. */
  nothingToCompress(): void {
    this.idleUntil = this.now() + STRUCTURAL_IDLE_MS;
  }

  /**
   * A compression finished. Ineffective ones extend the streak; effective ones wait for the
   * provider's next report to confirm the prompt really fell under the threshold.
   */
  compressionDone(effective: boolean): void {
    this.idleUntil = null;
    if (!effective) {
      this.streak++;
      this.awaitingVerification = false;
      if (this.tripped && this.lastProbeAt === null) this.lastProbeAt = this.now();
      return;
    }
    this.awaitingVerification = true;
  }

  /**
   * The provider reported the prompt size. Under the threshold re-arms the attempt counter and,
   * after a compression, confirms it (closing the breaker); over it after a compression counts
   * that compression as ineffective.
   */
  promptReported(promptTokens: number, threshold: number): void {
    if (promptTokens < threshold) {
      this.attemptsUsed = 0;
      if (this.awaitingVerification) {
        this.streak = 0;
        this.lastProbeAt = null;
      }
    } else if (this.awaitingVerification) {
      this.streak++;
      if (this.tripped) this.lastProbeAt ??= this.now();
    }
    this.awaitingVerification = false;
  }

  /** A new turn: the per-turn attempt budget starts over. */
  newTurn(): void {
    this.attemptsUsed = 0;
  }

  /** The persistable part. */
  snapshot(): GuardSnapshot {
    return { summarizerCooldownUntil: this.cooldownUntil, ineffectiveStreak: this.streak };
  }

  /** Restores persisted state (a resumed session). */
  restore(snapshot: Partial<GuardSnapshot>): void {
    if (snapshot.summarizerCooldownUntil !== undefined)
      this.cooldownUntil = snapshot.summarizerCooldownUntil;
    if (snapshot.ineffectiveStreak !== undefined) this.streak = snapshot.ineffectiveStreak;
  }

  /** Forgets everything (session reset). */
  reset(): void {
    this.cooldownUntil = null;
    this.failures = 0;
    this.lastFailure = undefined;
    this.streak = 0;
    this.lastProbeAt = null;
    this.idleUntil = null;
    this.attemptsUsed = 0;
    this.awaitingVerification = false;
  }
}
