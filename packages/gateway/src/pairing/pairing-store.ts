/**
 * Pairing: an unknown person who writes to the bot in a DM gets a one-time code; the owner runs
 * `hermes pairing approve <platform> <code>` and that platform's user id joins the approved list.
 * Approval is per platform (a Telegram id says nothing about a Slack one). State lives in two
 * files per platform under `HERMES_HOME/pairing/` so the CLI and the gateway share it without a
 * database; every call reads the files again, so an approval takes effect on the next message.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { generatePairingCode, normalizePairingCode } from './pairing-code.js';
import {
  type ApprovedFile,
  ApprovedFileSchema,
  type ApprovedUser,
  type PendingCode,
  type PendingFile,
  PendingFileSchema,
  pairingFile,
  readPairingFile,
  writePairingFile,
} from './pairing-files.js';

/** Hermes' numbers: codes live an hour, three may wait per platform, one request per user per 10 min. */
export const PAIRING_DEFAULTS = {
  codeTtlMs: 3_600_000,
  maxPendingPerPlatform: 3,
  rateLimitMs: 600_000,
} as const;

/** Options of {@link PairingStore}. */
export interface PairingStoreOptions {
  /** How long a code is valid (`gateway.pairing.code_ttl_seconds`). Default one hour. */
  readonly codeTtlMs?: number;
  /** Codes waiting at once per platform; more requests are refused until one is used or expires. */
  readonly maxPendingPerPlatform?: number;
  /** A user gets an answer to a pairing request at most once per this many ms (spam guard). */
  readonly rateLimitMs?: number;
  readonly clock?: () => number;
  /** Told when a pairing file could not be parsed (it is then read as empty). */
  readonly onCorrupt?: (path: string) => void;
}

/** What {@link PairingStore.issue} did for a pairing request. */
export type PairingIssue =
  /** A code for the user: new, or the one already waiting for them (`fresh: false`). */
  | {
      readonly kind: 'code';
      readonly code: string;
      readonly expiresAt: number;
      readonly fresh: boolean;
    }
  /** The user asked less than `rateLimitMs` ago: say nothing (no reply flood). */
  | { readonly kind: 'rate_limited' }
  /** `maxPendingPerPlatform` codes already wait on this platform. */
  | { readonly kind: 'full' };

/** A pending code, with its platform, for `hermes pairing list`. */
export interface PendingPairing extends PendingCode {
  readonly platform: string;
}

/** An approved user, with their platform, for `hermes pairing list`. */
export interface ApprovedPairing extends ApprovedUser {
  readonly platform: string;
}

/** Pending codes and approved users over every platform. */
export interface PairingList {
  readonly pending: readonly PendingPairing[];
  readonly approved: readonly ApprovedPairing[];
}

/** The pairing state under `HERMES_HOME/pairing/`. Safe to share between processes. */
export class PairingStore {
  /** `HERMES_HOME/pairing`. */
  readonly dir: string;
  readonly #ttlMs: number;
  readonly #maxPending: number;
  readonly #rateLimitMs: number;
  readonly #clock: () => number;
  readonly #onCorrupt: ((path: string) => void) | undefined;
  /** Writes in this process, one after another, so two messages never lose each other's update. */
  #writes: Promise<unknown> = Promise.resolve();

  constructor(hermesHome: string, options: PairingStoreOptions = {}) {
    this.dir = join(hermesHome, 'pairing');
    this.#ttlMs = options.codeTtlMs ?? PAIRING_DEFAULTS.codeTtlMs;
    this.#maxPending = options.maxPendingPerPlatform ?? PAIRING_DEFAULTS.maxPendingPerPlatform;
    this.#rateLimitMs = options.rateLimitMs ?? PAIRING_DEFAULTS.rateLimitMs;
    this.#clock = options.clock ?? Date.now;
    this.#onCorrupt = options.onCorrupt;
  }

  /** Whether the owner approved `userId` on `platform`. */
  async isApproved(platform: string, userId: string): Promise<boolean> {
    const approved = await this.#approved(platform);
    return approved.users.some((user) => user.userId === userId);
  }

  /**
   * Answers a pairing request from `userId`: their waiting code, a new one, or a refusal. Expired
   * codes and stale request stamps are dropped on the way.
   */
  issue(platform: string, userId: string, userName?: string): Promise<PairingIssue> {
    return this.#serial(async () => {
      const now = this.#clock();
      const pending = await this.#pending(platform, now);
      const last = pending.requests[userId];
      if (last !== undefined && now - last < this.#rateLimitMs) return { kind: 'rate_limited' };
      pending.requests[userId] = now;
      const waiting = pending.codes.find((entry) => entry.userId === userId);
      let result: PairingIssue;
      if (waiting) {
        result = { kind: 'code', code: waiting.code, expiresAt: waiting.expiresAt, fresh: false };
      } else if (pending.codes.length >= this.#maxPending) {
        result = { kind: 'full' };
      } else {
        const code = uniqueCode(pending.codes);
        const expiresAt = now + this.#ttlMs;
        pending.codes.push({
          code,
          userId,
          ...(userName ? { userName } : {}),
          createdAt: now,
          expiresAt,
        });
        result = { kind: 'code', code, expiresAt, fresh: true };
      }
      await this.#writePending(platform, pending);
      return result;
    });
  }

  /**
   * Approves the user who holds `code` on `platform` (case and dashes ignored). Resolves the
   * approved user, or `undefined` when no such code is waiting (wrong, used, or expired).
   */
  approve(platform: string, code: string): Promise<ApprovedPairing | undefined> {
    return this.#serial(async () => {
      const now = this.#clock();
      const wanted = normalizePairingCode(code);
      const pending = await this.#pending(platform, now);
      const entry = pending.codes.find((candidate) => candidate.code === wanted);
      if (!entry) return undefined;
      pending.codes = pending.codes.filter((candidate) => candidate !== entry);
      delete pending.requests[entry.userId];
      const approved = await this.#approved(platform);
      const user: ApprovedUser = {
        userId: entry.userId,
        ...(entry.userName ? { userName: entry.userName } : {}),
        approvedAt: now,
      };
      approved.users = [...approved.users.filter((u) => u.userId !== entry.userId), user];
      // Approved first: a crash between the writes leaves a used code waiting, never a lost user.
      await writePairingFile(this.dir, pairingFile(this.dir, platform, 'approved'), approved);
      await this.#writePending(platform, pending);
      return { platform, ...user };
    });
  }

  /** Removes `userId` from `platform`'s approved users; resolves whether they were there. */
  revoke(platform: string, userId: string): Promise<boolean> {
    return this.#serial(async () => {
      const approved = await this.#approved(platform);
      const kept = approved.users.filter((user) => user.userId !== userId);
      if (kept.length === approved.users.length) return false;
      await writePairingFile(this.dir, pairingFile(this.dir, platform, 'approved'), {
        users: kept,
      });
      return true;
    });
  }

  /** Every waiting (unexpired) code and every approved user, by platform name. */
  async list(): Promise<PairingList> {
    const now = this.#clock();
    const pending: PendingPairing[] = [];
    const approved: ApprovedPairing[] = [];
    for (const platform of await this.#platforms()) {
      for (const entry of (await this.#pending(platform, now)).codes) {
        pending.push({ platform, ...entry });
      }
      for (const user of (await this.#approved(platform)).users) {
        approved.push({ platform, ...user });
      }
    }
    return { pending, approved };
  }

  async #platforms(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const platforms = new Set<string>();
    for (const name of names) {
      const match = /^(.+)-(?:pending|approved)\.json$/.exec(name);
      if (match?.[1]) platforms.add(match[1]);
    }
    return [...platforms].sort();
  }

  async #pending(platform: string, now: number): Promise<PendingFile> {
    const path = pairingFile(this.dir, platform, 'pending');
    const file = await readPairingFile(path, PendingFileSchema, this.#onCorrupt);
    const requests: Record<string, number> = {};
    for (const [user, at] of Object.entries(file.requests)) {
      if (now - at < this.#rateLimitMs) requests[user] = at;
    }
    return { codes: file.codes.filter((entry) => entry.expiresAt > now), requests };
  }

  #approved(platform: string): Promise<ApprovedFile> {
    const path = pairingFile(this.dir, platform, 'approved');
    return readPairingFile(path, ApprovedFileSchema, this.#onCorrupt);
  }

  #writePending(platform: string, pending: PendingFile): Promise<void> {
    return writePairingFile(this.dir, pairingFile(this.dir, platform, 'pending'), pending);
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#writes.then(work, work);
    this.#writes = run.catch(() => undefined);
    return run;
  }
}

function uniqueCode(taken: readonly PendingCode[]): string {
  for (;;) {
    const code = generatePairingCode();
    if (!taken.some((entry) => entry.code === code)) return code;
  }
}
