/** The text of `/rollback [n]`, and the note the conversation gets after a rollback. */
import type { Checkpoint, RollbackResult } from './checkpoint-store.js';

/** What {@link rollbackAnswer} needs of the handle. */
interface RollbackSource {
  readonly enabled: boolean;
  list(): Promise<Checkpoint[]>;
  rollback(n: number): Promise<RollbackResult | undefined>;
}

const MAX_LISTED = 20;

/** `/rollback` lists the checkpoints; `/rollback <n>` restores one and says what it did. */
export async function rollbackAnswer(
  source: RollbackSource,
  args: string,
  cwd: string,
  lastNotice: string | undefined,
): Promise<string> {
  const arg = args.trim();
  try {
    if (arg === '') return await listing(source, cwd, lastNotice);
    if (!/^\d+$/.test(arg) || Number(arg) < 1) {
      return 'Usage: /rollback to list checkpoints, /rollback <n> to restore checkpoint n.';
    }
    const result = await source.rollback(Number(arg));
    if (!result) return `There is no checkpoint ${arg}; /rollback lists them.`;
    return describeRollback(result);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return `Rollback failed: ${message}`;
  }
}

async function listing(
  source: RollbackSource,
  cwd: string,
  lastNotice: string | undefined,
): Promise<string> {
  const checkpoints = await source.list();
  const lines: string[] = [];
  if (!source.enabled) lines.push('Checkpoints are off (checkpoints.enabled: false).');
  if (checkpoints.length === 0) {
    lines.push(`No checkpoints yet for ${cwd}.`);
  } else {
    lines.push(`Checkpoints of ${cwd} (newest first; /rollback <n> restores one):`);
    for (const checkpoint of checkpoints.slice(0, MAX_LISTED)) {
      lines.push(
        `${checkpoint.number}. ${checkpoint.createdAt.toISOString()} before ${checkpoint.trigger}`,
      );
      const changes = checkpoint.changes.trim();
      lines.push(changes ? indent(changes) : '   (no changes since)');
    }
    if (checkpoints.length > MAX_LISTED) {
      lines.push(`… and ${checkpoints.length - MAX_LISTED} older.`);
    }
  }
  if (lastNotice) lines.push(`Last notice: ${lastNotice}`);
  return lines.join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `   ${line.trim()}`)
    .join('\n');
}

/** What a rollback did, for the person. */
export function describeRollback(result: RollbackResult): string {
  const { checkpoint, restored, removed } = result;
  const lines = [
    `Rolled back to checkpoint ${checkpoint.number} (${checkpoint.createdAt.toISOString()}, before ${checkpoint.trigger}).`,
  ];
  lines.push(restored.length ? `Restored: ${restored.join(', ')}` : 'Restored: nothing');
  lines.push(removed.length ? `Removed: ${removed.join(', ')}` : 'Removed: nothing');
  return lines.join('\n');
}

/** The note the model reads at its next turn: the files are no longer what it last saw. */
export function rollbackNote(result: RollbackResult): string {
  const { checkpoint, restored, removed } = result;
  const parts = [
    `[System note: the user ran /rollback; the working directory was restored to checkpoint ${checkpoint.number}, taken ${checkpoint.createdAt.toISOString()} before ${checkpoint.trigger}.`,
    restored.length ? ` Restored: ${restored.join(', ')}.` : '',
    removed.length ? ` Removed: ${removed.join(', ')}.` : '',
    ' File contents described earlier in this conversation may be out of date.]',
  ];
  return parts.join('');
}
