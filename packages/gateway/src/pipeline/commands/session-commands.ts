/** The slash commands about the conversation itself: /new, /stop, /steer, /compress, /model. */
import type { CompressionReport } from '@hermes/loop';
import { redactForChat } from '../../delivery/redact-for-chat.js';
import { STEERED } from '../notices.js';
import type { SlashCommand } from './command-host.js';

/** Said when a command needs the session idle. */
export const BUSY_NOW = 'A turn is running; try again when it has finished (or /stop it).';

/** `/new`: a fresh session (stops what runs first). */
export const newCommand: SlashCommand = {
  name: 'new',
  summary: 'start a fresh conversation (stops what is running)',
  async run({ host, key }) {
    const { stopped } = await host.stopSession(key, true);
    await host.directory.reset(key);
    await host.cache.evict(key);
    const fresh = '✨ Started a new conversation. (Earlier chats stay searchable.)';
    return stopped ? `⏹ Stopped the running turn. ${fresh}` : fresh;
  },
};

/** `/stop`: interrupts the running turn, drops the queue. */
export const stopCommand: SlashCommand = {
  name: 'stop',
  summary: 'stop the running turn and drop queued messages',
  async run({ host, key }) {
    const { stopped, dropped } = await host.stopSession(key, false);
    if (!stopped && dropped === 0) return 'Nothing is running.';
    const plural = dropped === 1 ? 'message' : 'messages';
    return dropped > 0 ? `⏹ Stopped (${dropped} queued ${plural} dropped).` : '⏹ Stopped.';
  },
};

/** `/steer <text>`: a note for the running turn. */
export const steerCommand: SlashCommand = {
  name: 'steer',
  args: '<text>',
  summary: 'add a note to the running turn without stopping it',
  async run({ host, key, args }) {
    if (!args) return 'Usage: /steer <text>';
    const agent = host.slots.peek(key)?.agent;
    if (!agent?.running || !agent.steer(args)) {
      return 'Nothing is running; send it as a normal message.';
    }
    return STEERED;
  },
};

/** `/compress [topic]`: compression between turns, on the session's worker. */
export const compressCommand: SlashCommand = {
  name: 'compress',
  args: '[topic]',
  summary: 'summarize the conversation so far to free context',
  async run({ host, key, args, message }) {
    if (host.slots.peek(key)?.busy) return BUSY_NOW;
    if (!host.cache.peek(key) && !(await host.store.getRoute(key))) {
      return 'There is no conversation to compress yet.';
    }
    const report = await host.exclusive(key, message, async () => {
      const { agent } = await host.agentFor(key, message);
      return agent.compress(args || undefined);
    });
    return compressionLine(report);
  },
};

/** `/compress`'s answer. */
export function compressionLine(report: CompressionReport): string {
  if (!report.ok) return `Compression failed: ${redactForChat(report.error ?? 'unknown error')}`;
  if (!report.changed)
    return 'Nothing to compress: the conversation is already as short as it gets.';
  const lines = [
    `🗜 Compressed ${report.messagesBefore} → ${report.messagesAfter} messages ` +
      `(~${report.tokensBefore.toLocaleString('en-US')} → ~${report.tokensAfter.toLocaleString('en-US')} tokens).`,
    ...(report.warnings ?? []).map((warning) => `⚠️ ${redactForChat(warning)}`),
  ];
  return lines.join('\n');
}

const MODEL_NAME = /^[\w.:/@+-]{1,200}$/;

/** `/model [name]`: shows or switches the session's model. */
export const modelCommand: SlashCommand = {
  name: 'model',
  args: '[name]',
  summary: "show this conversation's model, or switch it",
  async run({ host, key, args, message }) {
    if (!args) {
      const { agent } = await host.agentFor(key, message);
      return `Model: ${agent.model}`;
    }
    if (!MODEL_NAME.test(args)) return 'Usage: /model <name> (letters, digits and . : / @ + - _)';
    if (host.slots.peek(key)?.busy) return BUSY_NOW;
    host.models.set(key, args);
    // The agent is rebuilt with the new model at the next message; the session stays.
    await host.cache.evict(key);
    return `Model for this conversation: ${args} (from your next message).`;
  },
};
