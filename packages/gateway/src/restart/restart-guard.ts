/**
 * The restart-storm fuse (Hermes' `restart_loop_guard.py`). The storm it stops is self-made: a
 * turn runs a command that kills the gateway, the service manager restarts it, the gateway
 * resumes the cut-off turn, which runs the command again, every few seconds. The guard cannot
 * stop the restarts; it stops the resume: three starts that found cut-off turns, each within
 * 300 s of the previous, skip the automatic resume once. The gateway still starts and still
 * answers new messages. A broken state file never blocks: any read or write failure resumes.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Starts with cut-off turns in one chain that count as a storm. */
export const RESTART_LOOP_STARTS = 3;
/** Longest gap between two starts of one chain, ms. */
export const RESTART_LOOP_WINDOW_MS = 300_000;

/** The state file's path under `hermesHome`. */
export function restartLoopFile(hermesHome: string): string {
  return join(hermesHome, 'gateway', 'restart_loop.json');
}

/** Decides, once per start that found cut-off turns, whether to resume them. */
export class RestartGuard {
  readonly #file: string;
  readonly #clock: () => number;

  constructor(hermesHome: string, clock: () => number = Date.now) {
    this.#file = restartLoopFile(hermesHome);
    this.#clock = clock;
  }

  /**
   * Records this start (call it only when the store reported cut-off turns) and answers whether
   * to resume them: `false` once when this is the third start of a chain, then the chain starts
   * over. `true` whenever the state cannot be read or written.
   */
  shouldResume(): boolean {
    const now = this.#clock();
    const chain = [...this.#chainBefore(now), now];
    const storm = chain.length >= RESTART_LOOP_STARTS;
    try {
      this.#save(storm ? [] : chain);
    } catch {
      return true; // a fuse that cannot record must not trip
    }
    return !storm;
  }

  /** The recorded starts that still form a chain ending within the window before `now`. */
  #chainBefore(now: number): number[] {
    const starts = this.#load();
    const chain: number[] = [];
    let next = now;
    for (let i = starts.length - 1; i >= 0; i--) {
      const start = starts[i] as number;
      if (start > next || next - start > RESTART_LOOP_WINDOW_MS) break;
      chain.unshift(start);
      next = start;
    }
    return chain;
  }

  /** The recorded starts, or none when the file is missing or not what this guard writes. */
  #load(): number[] {
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.#file, 'utf8'));
      const starts = (parsed as { starts?: unknown } | null)?.starts;
      if (!Array.isArray(starts)) return [];
      return starts.every((s) => Number.isFinite(s)) ? (starts as number[]) : [];
    } catch {
      return [];
    }
  }

  /** Writes atomically (temp file + rename), so a kill mid-write leaves the old state. */
  #save(starts: readonly number[]): void {
    mkdirSync(dirname(this.#file), { recursive: true });
    const temp = `${this.#file}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, `${JSON.stringify({ starts })}\n`);
      renameSync(temp, this.#file);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }
}
