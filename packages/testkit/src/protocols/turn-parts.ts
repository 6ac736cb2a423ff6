/**
 * Small, protocol-neutral readings of a scripted turn that every encoder needs: the usage with
 * its defaults, a tool call's argument text, stream-sized pieces of text, the finish reason and
 * generated ids. Kept here so the three encoders agree on them.
 */
import type { Chunking, ScriptToolCall, ScriptTurn, ScriptUsage } from '../script.js';
import { ChunkingSchema, ScriptUsageSchema } from '../script.js';
import type { EncodeContext } from './encoder.js';

/** The turn's usage, every counter defaulting to 0 when the script gives none. */
export function resolveUsage(turn: ScriptTurn): ScriptUsage {
  return turn.usage ?? ScriptUsageSchema.parse({});
}

/** The turn's chunking, with the schema's defaults when the script gives none. */
export function resolveChunking(turn: ScriptTurn): Chunking {
  return turn.chunking ?? ChunkingSchema.parse({});
}

/** A tool call's arguments as sent on the wire: a string verbatim (it may be broken JSON), an object as JSON. */
export function argumentsText(call: ScriptToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

/**
 * Cuts `text` into pieces of at most `size` characters, never inside a surrogate pair, so every
 * piece is valid text on its own. The empty string gives no pieces.
 */
export function splitText(text: string, size: number): string[] {
  const codePoints = Array.from(text);
  const pieces: string[] = [];
  for (let start = 0; start < codePoints.length; start += size) {
    pieces.push(codePoints.slice(start, start + size).join(''));
  }
  return pieces;
}

/** The finish reason: the script's override, else `tool_calls` when the turn calls tools, else `stop`. */
export function finishReasonOf(turn: ScriptTurn): NonNullable<ScriptTurn['finishReason']> {
  return turn.finishReason ?? (turn.toolCalls.length > 0 ? 'tool_calls' : 'stop');
}

/**
 * A stable id for the `index`-th item of a response, such as a tool call id the script left out:
 * `prefix` plus a tail derived from the response id, so ids are unique per response and the same
 * in every place one response mentions them.
 */
export function generatedId(prefix: string, context: EncodeContext, index: number): string {
  return `${prefix}${context.responseId}${index.toString(36).padStart(2, '0')}`;
}
