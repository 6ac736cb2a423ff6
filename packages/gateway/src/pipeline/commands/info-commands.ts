/** The slash commands that only report: /status and /usage (and /help, in the table). */
import { auxiliaryUsageLines } from '@hermes/loop';
import type { Usage } from '@hermes/protocol';
import type { CommandHost, SlashCommand } from './command-host.js';

/** The stored session `key` is on: its cached agent's, else its route's. */
async function currentSessionId(host: CommandHost, key: string): Promise<string | undefined> {
  return host.cache.peek(key)?.agent.sessionId ?? (await host.store.getRoute(key))?.sessionId;
}

/** `/status`. */
export const statusCommand: SlashCommand = {
  name: 'status',
  summary: 'session, model, whether a turn is running, queue and cache',
  async run({ host, key }) {
    const slot = host.slots.peek(key);
    const sessionId = await currentSessionId(host, key);
    const model =
      host.cache.peek(key)?.agent.model ??
      host.models.get(key) ??
      'the configured default (agent not loaded)';
    const running = slot?.current?.kind === 'turn';
    const queued = slot?.queue.filter((item) => item.kind === 'turn').length ?? 0;
    return [
      `Session: ${sessionId ?? 'new (starts with your next message)'}`,
      `Model: ${model}`,
      `State: ${running ? 'running' : 'idle'}`,
      `Queued: ${queued}`,
      `Cached agents: ${host.cache.size}`,
    ].join('\n');
  },
};

function tokens(value: number): string {
  return value.toLocaleString('en-US');
}

/** One line of token counts. */
export function usageLine(usage: Usage): string {
  const parts = [`in ${tokens(usage.inputTokens)}`, `out ${tokens(usage.outputTokens)}`];
  if (usage.cacheReadTokens > 0) parts.push(`cache read ${tokens(usage.cacheReadTokens)}`);
  if (usage.cacheWriteTokens > 0) parts.push(`cache write ${tokens(usage.cacheWriteTokens)}`);
  if (usage.reasoningTokens > 0) parts.push(`reasoning ${tokens(usage.reasoningTokens)}`);
  return parts.join(' · ');
}

/**
 * How full the cached agent's context is: `Context: ~12,340 of 128,000 tokens (10%), 42
 * messages`; `undefined` when the agent is not loaded (reading the session just for this would
 * rebuild it).
 */
async function contextLine(host: CommandHost, key: string): Promise<string | undefined> {
  const agent = host.cache.peek(key)?.agent;
  if (!agent) return undefined;
  const status = await agent.contextStatus();
  const window =
    status.contextLength === undefined
      ? ''
      : ` of ${tokens(status.contextLength)} (${Math.round((100 * status.estimatedTokens) / status.contextLength)}%)`;
  return `Context: ~${tokens(status.estimatedTokens)} tokens${window}, ${status.messages} messages`;
}

/** `/usage`. */
export const usageCommand: SlashCommand = {
  name: 'usage',
  summary: "this conversation's tokens, cost and how full its context is",
  async run({ host, key }) {
    const sessionId = await currentSessionId(host, key);
    const totals = sessionId === undefined ? undefined : host.usage.get(sessionId);
    if (sessionId === undefined || totals === undefined) {
      return 'No usage recorded for this conversation yet.';
    }
    const turns = totals.turns === 1 ? '1 turn' : `${totals.turns} turns`;
    const side = auxiliaryUsageLines(host.cache.peek(key)?.auxiliaryUsage?.() ?? new Map());
    const context = await contextLine(host, key);
    return [
      `Session ${sessionId}: ${turns}, ${totals.apiCalls} model calls`,
      `Tokens: ${usageLine(totals.usage)}`,
      `Cost: ~$${totals.costUsd.toFixed(4)}`,
      ...(context ? [context] : []),
      ...(side.length > 0 ? ['Side tasks (this agent):', ...side.map((line) => `  ${line}`)] : []),
    ].join('\n');
  },
};
