/** The built-in store: MEMORY.md and USER.md under `HERMES_HOME/memories/`. */
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { hasErrorCode, isHermesError, parseOrThrow } from '@hermes/protocol';
import { z } from 'zod';
import type { MemoryWriteEvent } from '../memory-types.js';
import { memoryCharCount, parseMemoryEntries, serializeMemoryEntries } from './entries.js';
import { type FileLockOptions, withFileLock } from './file-lock.js';
import { readMemoryFile, writeMemoryFile } from './memory-files.js';
import { applyMemoryOperations, type MemoryOperation, type MemoryTarget } from './operations.js';
import {
  type MemorySnapshot,
  type MemorySnapshotSection,
  renderMemorySnapshot,
  sanitizeEntriesForSnapshot,
} from './snapshot.js';
import { describeMemoryThreat, scanMemoryContent } from './threat-scan.js';
import {
  driftMessage,
  type MemoryWriteResult,
  operationFailureMessage,
  overflowMessage,
  successMessage,
} from './write-result.js';

/** Default size of MEMORY.md in characters (about 800 tokens). */
export const DEFAULT_MEMORY_CHAR_LIMIT = 2_200;
/** Default size of USER.md in characters (about 500 tokens). */
export const DEFAULT_USER_CHAR_LIMIT = 1_375;

/** Options of {@link BuiltinMemoryStore}; validated, since they come from config. */
export const BuiltinMemoryStoreOptionsSchema = z.object({
  /** The Hermes home; default `$HERMES_HOME`, else `~/.hermes`. */
  hermesHome: z.string().min(1).optional(),
  memoryCharLimit: z.number().int().positive().default(DEFAULT_MEMORY_CHAR_LIMIT),
  userCharLimit: z.number().int().positive().default(DEFAULT_USER_CHAR_LIMIT),
  lock: z
    .object({
      timeoutMs: z.number().int().positive().optional(),
      staleMs: z.number().int().positive().optional(),
      pollMs: z.number().int().positive().optional(),
    })
    .optional(),
});

/** Options of {@link BuiltinMemoryStore} as passed in. */
export type BuiltinMemoryStoreOptions = z.input<typeof BuiltinMemoryStoreOptionsSchema>;

/** Hears about every effective write (used to mirror writes into an external provider). */
export type MemoryWriteListener = (event: MemoryWriteEvent) => void | Promise<void>;

const FILES: Record<MemoryTarget, string> = { memory: 'MEMORY.md', user: 'USER.md' };

/**
 * MEMORY.md (the agent's notes) and USER.md (who the user is). `loadSnapshot` freezes what the
 * system prompt shows for the whole session; `write` edits the live files under a cross-process
 * lock, re-reading them first and refusing to edit a file another process changed since this
 * store last showed it.
 */
export class BuiltinMemoryStore {
  /** `HERMES_HOME/memories`. */
  readonly directory: string;
  private readonly limits: Record<MemoryTarget, number>;
  private readonly lockOptions: FileLockOptions;
  /** The file text this store last read or wrote: the view the model has of each file. */
  private readonly seen = new Map<MemoryTarget, string>();
  private readonly listeners = new Set<MemoryWriteListener>();
  private frozen: MemorySnapshot | undefined;

  /** @throws `ValidationError` naming a bad option. */
  constructor(options: BuiltinMemoryStoreOptions = {}) {
    const parsed = parseOrThrow(
      BuiltinMemoryStoreOptionsSchema,
      options,
      'memory store options',
      'Fix memory.memory_char_limit / memory.user_char_limit in config.yaml.',
    );
    const home = parsed.hermesHome ?? process.env.HERMES_HOME ?? join(homedir(), '.hermes');
    this.directory = join(home, 'memories');
    this.limits = { memory: parsed.memoryCharLimit, user: parsed.userCharLimit };
    this.lockOptions = { ...parsed.lock };
  }

  /** The absolute path of `MEMORY.md` or `USER.md`. */
  pathOf(target: MemoryTarget): string {
    return join(this.directory, FILES[target]);
  }

  /** The character limit of a target. */
  limitOf(target: MemoryTarget): number {
    return this.limits[target];
  }

  /** Registers a listener for effective writes; returns the function that removes it. */
  subscribe(listener: MemoryWriteListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Reads both files and freezes the snapshot the system prompt shows from now on. Never throws
   * for an unreadable file: its section says so instead.
   */
  async loadSnapshot(): Promise<MemorySnapshot> {
    const memory = await this.loadSection('memory');
    const user = await this.loadSection('user');
    this.frozen = Object.freeze({
      memory,
      user,
      loadedAt: Date.now(),
      text: renderMemorySnapshot(memory, user),
    });
    return this.frozen;
  }

  /** The snapshot of the last `loadSnapshot`, unchanged by later writes. */
  get snapshot(): MemorySnapshot | undefined {
    return this.frozen;
  }

  /** The system-prompt text of the frozen snapshot; '' before `loadSnapshot`. */
  formatForSystemPrompt(): string {
    return this.frozen?.text ?? '';
  }

  /**
   * The live entries of a file. @throws `HermesError` `memory.file_unreadable`.
   */
  async readEntries(target: MemoryTarget): Promise<string[]> {
    const { text } = await readMemoryFile(this.pathOf(target));
    this.seen.set(target, text);
    return parseMemoryEntries(text);
  }

  /**
   * Applies `operations` to one file as a unit: every content is threat-scanned first, then the
   * file is locked, re-read, edited in memory, checked against the limit in its final state, and
   * written in one step. Any failure writes nothing. Never throws for expected failures.
   */
  async write(
    target: MemoryTarget,
    operations: readonly MemoryOperation[],
  ): Promise<MemoryWriteResult> {
    for (const operation of operations) {
      if (operation.action === 'remove') continue;
      const threat = scanMemoryContent(operation.content);
      if (threat) {
        const message = `Blocked: the content matches a threat pattern: ${describeMemoryThreat(threat)}. Memory entries are injected into every future system prompt, so they must not carry instructions to the model, exfiltration instructions or invisible characters. Nothing was written; rephrase the entry as a plain fact.`;
        return { ok: false, target, reason: 'blocked', message };
      }
    }
    let result: MemoryWriteResult;
    try {
      await mkdir(this.directory, { recursive: true });
      result = await withFileLock(
        `${this.pathOf(target)}.lock`,
        () => this.writeLocked(target, operations),
        this.lockOptions,
      );
    } catch (error) {
      if (!isHermesError(error)) throw error;
      const reason = hasErrorCode(error, 'memory.lock_timeout') ? 'lock_timeout' : 'unreadable';
      result = { ok: false, target, reason, message: error.message };
    }
    if (result.ok) await this.notify(result.changes);
    return result;
  }

  private async writeLocked(
    target: MemoryTarget,
    operations: readonly MemoryOperation[],
  ): Promise<MemoryWriteResult> {
    const path = this.pathOf(target);
    const { text } = await readMemoryFile(path);
    const entries = parseMemoryEntries(text);
    const limit = this.limits[target];
    const usage = { used: memoryCharCount(entries), limit };
    const previous = this.seen.get(target);
    this.seen.set(target, text);
    // Adds only append, so they are safe on a file that changed; edits that locate an entry
    // by substring are not: the model chose the substring from a view that is now stale.
    const edits = operations.some((operation) => operation.action !== 'add');
    if (edits && previous !== undefined && previous !== text) {
      const message = driftMessage(target, FILES[target]);
      return { ok: false, target, reason: 'drift', message, entries, usage };
    }
    const outcome = applyMemoryOperations(entries, operations, target);
    if (!outcome.ok) {
      const reason = outcome.failure.kind;
      const message = operationFailureMessage(outcome.failure);
      return { ok: false, target, reason, message, entries, usage };
    }
    const next = memoryCharCount(outcome.entries);
    // Shrinking edits are always allowed, so a store over a lowered limit can still be consolidated.
    if (next > limit && next > usage.used) {
      const message = overflowMessage(target, usage.used, next, limit);
      return { ok: false, target, reason: 'overflow', message, entries, usage };
    }
    if (outcome.changes.length > 0) {
      const written = serializeMemoryEntries(outcome.entries);
      await writeMemoryFile(path, written);
      this.seen.set(target, written);
    }
    const message = successMessage(outcome.changes, outcome.duplicates);
    const finalUsage = { used: next, limit };
    return {
      ok: true,
      target,
      message,
      entries: outcome.entries,
      usage: finalUsage,
      changes: outcome.changes,
    };
  }

  private async loadSection(target: MemoryTarget): Promise<MemorySnapshotSection> {
    const file = FILES[target];
    const limit = this.limits[target];
    try {
      const entries = await this.readEntries(target);
      const safe = sanitizeEntriesForSnapshot(entries, file);
      const usage = { used: memoryCharCount(entries), limit };
      return { target, file, entries: safe.entries, usage, blocked: safe.blocked };
    } catch (error) {
      if (!hasErrorCode(error, 'memory.file_unreadable')) throw error;
      const why = String(error.details.why ?? 'read error');
      return { target, file, entries: [], usage: { used: 0, limit }, blocked: 0, unreadable: why };
    }
  }

  private async notify(changes: readonly MemoryWriteEvent[]): Promise<void> {
    for (const change of changes) {
      for (const listener of this.listeners) {
        // A mirror must never undo or fail a write that already reached disk.
        await Promise.resolve()
          .then(() => listener(change))
          .catch(() => undefined);
      }
    }
  }
}
