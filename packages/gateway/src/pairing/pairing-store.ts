/**
 * Pairing: an unknown person who writes to the bot in a DM gets a one-time code; the owner runs
 * `hermes pairing approve <platform> <code>` and that platform's user id joins the approved list.
 * Approval is per platform (a Telegram id says nothing about a Slack one). By default state lives
 * in two files per platform under `HERMES_HOME/pairing/` so the CLI and the gateway share it
 * without a database; `options.data` can put it elsewhere (PostgreSQL, for gateways sharing one
 * database). Every call reads the state again, so an approval takes effect on the next message.
 */
import { join } from 'node:path';
import { generatePairingCode, normalizePairingCode } from './pairing-code.js';
import { FilePairingData, type PairingData } from './pairing-data.js';
import type { ApprovedUser, PendingCode, PendingFile } from './pairing-files.js';

export {
  FilePairingData,
  type PairingChange,
  PairingData,
  type PairingState,
} from './pairing-data.js';

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
  /** Told when a pairing file could not be parsed (it is then read as empty). Files only. */
  readonly onCorrupt?: (path: string) => void;
  /**
   * Where the state lives. Default: the files under `HERMES_HOME/pairing/`. Pass
   * `new PostgresPairingData(database)` (from `@hermes/gateway/postgres`) to share it through
   * PostgreSQL.
   */
  readonly data?: PairingData;
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

/** The pairing state (by default under `HERMES_HOME/pairing/`). Safe to share between processes. */
export class PairingStore {
  /** `HERMES_HOME/pairing`. */
  readonly dir: string;
  readonly #ttlMs: number;
  readonly #maxPending: number;
  readonly #rateLimitMs: number;
  readonly #clock: () => number;
  readonly #data: PairingData;

  constructor(hermesHome: string, options: PairingStoreOptions = {}) {
    this.dir = join(hermesHome, 'pairing');
    this.#ttlMs = options.codeTtlMs ?? PAIRING_DEFAULTS.codeTtlMs;
    this.#maxPending = options.maxPendingPerPlatform ?? PAIRING_DEFAULTS.maxPendingPerPlatform;
    this.#rateLimitMs = options.rateLimitMs ?? PAIRING_DEFAULTS.rateLimitMs;
    this.#clock = options.clock ?? Date.now;
    this.#data = options.data ?? new FilePairingData(this.dir, options.onCorrupt);
  }

  /** Whether the owner approved `userId` on `platform`. */
  async isApproved(platform: string, userId: string): Promise<boolean> {
    const approved = await this.#data.readApproved(platform);
    return approved.users.some((user) => user.userId === userId);
  }

  /**
   * Answers a pairing request from `userId`: their waiting code, a new one, or a refusal. Expired
   * codes and stale request stamps are dropped on the way.
   */
  issue(platform: string, userId: string, userName?: string): Promise<PairingIssue> {
    return this.#data.update<PairingIssue>(platform, (state) => {
      const now = this.#clock();
      const pending = this.#fresh(state.pending, now);
      const last = pending.requests[userId];
      if (last !== undefined && now - last < this.#rateLimitMs) {
        return { result: { kind: 'rate_limited' } };
      }
      pending.requests[userId] = now;
      const waiting = pending.codes.find((entry) => entry.userId === userId);
      if (waiting) {
        const result = { kind: 'code', code: waiting.code, expiresAt: waiting.expiresAt } as const;
        return { result: { ...result, fresh: false }, pending };
      }
      if (pending.codes.length >= this.#maxPending) return { result: { kind: 'full' }, pending };
      const code = uniqueCode(pending.codes);
      const expiresAt = now + this.#ttlMs;
      pending.codes.push({
        code,
        userId,
        ...(userName ? { userName } : {}),
        createdAt: now,
        expiresAt,
      });
      return { result: { kind: 'code', code, expiresAt, fresh: true }, pending };
    });
  }

  /**
   * Approves the user who holds `code` on `platform` (case and dashes ignored). Resolves the
   * approved user, or `undefined` when no such code is waiting (wrong, used, or expired).
   */
  approve(platform: string, code: string): Promise<ApprovedPairing | undefined> {
    return this.#data.update<ApprovedPairing | undefined>(platform, (state) => {
      const now = this.#clock();
      const wanted = normalizePairingCode(code);
      const pending = this.#fresh(state.pending, now);
      const entry = pending.codes.find((candidate) => candidate.code === wanted);
      if (!entry) return { result: undefined };
      pending.codes = pending.codes.filter((candidate) => candidate !== entry);
      delete pending.requests[entry.userId];
      const user: ApprovedUser = {
        userId: entry.userId,
        ...(entry.userName ? { userName: entry.userName } : {}),
        approvedAt: now,
      };
      const users = [...state.approved.users.filter((u) => u.userId !== entry.userId), user];
      return { result: { platform, ...user }, pending, approved: { users } };
    });
  }

  /** Removes `userId` from `platform`'s approved users; resolves whether they were there. */
  revoke(platform: string, userId: string): Promise<boolean> {
    return this.#data.update(platform, (state) => {
      const kept = state.approved.users.filter((user) => user.userId !== userId);
      if (kept.length === state.approved.users.length) return { result: false };
      return { result: true, approved: { users: kept } };
    });
  }

  /** Every waiting (unexpired) code and every approved user, by platform name. */
  async list(): Promise<PairingList> {
    const now = this.#clock();
    const pending: PendingPairing[] = [];
    const approved: ApprovedPairing[] = [];
    for (const platform of await this.#data.platforms()) {
      const waiting = this.#fresh(await this.#data.readPending(platform), now);
      for (const entry of waiting.codes) pending.push({ platform, ...entry });
      for (const user of (await this.#data.readApproved(platform)).users) {
        approved.push({ platform, ...user });
      }
    }
    return { pending, approved };
  }

  /** The codes not yet expired and the request stamps still inside the rate-limit window. */
  #fresh(file: PendingFile, now: number): PendingFile {
    const requests: Record<string, number> = {};
    for (const [user, at] of Object.entries(file.requests)) {
      if (now - at < this.#rateLimitMs) requests[user] = at;
    }
    return { codes: file.codes.filter((entry) => entry.expiresAt > now), requests };
  }
}

function uniqueCode(taken: readonly PendingCode[]): string {
  for (;;) {
    const code = generatePairingCode();
    if (!taken.some((entry) => entry.code === code)) return code;
  }
}
