/** Trajectory export: one session as JSON Lines for training and replay tooling. */
import type { ToolSchema } from '@hermes/protocol';
import type { StoredMessage } from '../stored-message.js';

/** What a trajectory is built from. */
export interface TrajectorySource {
  readonly sessionId: string;
  readonly systemPrompt: string | undefined;
  readonly toolSchemas: readonly ToolSchema[] | undefined;
  readonly messages: readonly StoredMessage[];
}

/**
 * JSON Lines, one object per line: `{type:'session'}`, then `{type:'system_prompt'}` and
 * `{type:'tools'}` when stored, then one `{type:'message'}` per row in write order (tool calls and
 * reasoning included). Archived rows are kept, flagged `active: false`, so the turns before a
 * compaction stay in the trajectory. Ends with a newline.
 */
export function trajectoryJsonl(source: TrajectorySource): string {
  const lines: unknown[] = [{ type: 'session', sessionId: source.sessionId }];
  if (source.systemPrompt !== undefined) {
    lines.push({ type: 'system_prompt', text: source.systemPrompt });
  }
  if (source.toolSchemas !== undefined) lines.push({ type: 'tools', tools: source.toolSchemas });
  for (const row of source.messages) {
    lines.push({
      type: 'message',
      id: row.id,
      createdAt: row.createdAt,
      active: row.active,
      ...(row.finishReason === null ? {} : { finishReason: row.finishReason }),
      message: row.message,
    });
  }
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}
