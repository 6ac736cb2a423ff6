/** Slash commands that report: usage, context, tools, toolsets, skills, memory (and /compress). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { auxiliaryUsageLines } from '@hermes/loop';
import { estimateTokens, roleCounts } from './conversation.js';
import { formatTokens, oneLine, usageLine } from './format.js';
import type { Repl } from './repl.js';

/** `/usage`: this run's totals and the session's stored counters. */
export async function usageCommand(repl: Repl): Promise<undefined> {
  const { totals } = repl;
  const lines = [
    `This run: ${totals.turns} turns · ${usageLine(totals.usage, totals.costUsd, totals.apiCalls)}`,
  ];
  const id = repl.session.agent.sessionId;
  const stored = id ? await repl.session.store.getSession(id) : undefined;
  if (stored) {
    const c = stored.counters;
    const compressed = c.compressions > 0 ? ` · compressed ${c.compressions}×` : '';
    lines.push(
      `Session ${id}: ${c.messages} messages · ${usageLine(c, c.estimatedCostUsd, c.apiCalls)}${compressed}`,
    );
  }
  const side = auxiliaryUsageLines(repl.session.auxiliary.usage());
  if (side.length > 0) lines.push('Side tasks:', ...side.map((line) => `  ${line}`));
  repl.say(lines.join('\n'));
  return undefined;
}

/** `/context`: the model, the session, and the size of the conversation. */
export function contextCommand(repl: Repl): undefined {
  const messages = repl.session.agent.messages;
  const counts = Object.entries(roleCounts(messages))
    .map(([role, n]) => `${n} ${role}`)
    .join(', ');
  repl.say(
    [
      `Model: ${repl.session.agent.model}`,
      `Session: ${repl.session.agent.sessionId ?? '(new; created with the first message)'}`,
      `Messages: ${messages.length}${counts ? ` (${counts})` : ''}`,
      `Estimated size: ~${formatTokens(estimateTokens(messages))} tokens (system prompt not counted)`,
    ].join('\n'),
  );
  return undefined;
}

/** `/tools`: every registered tool with its toolset. */
export function toolsCommand(repl: Repl): undefined {
  const tools = [...repl.session.registry.list()].sort((a, b) => a.name.localeCompare(b.name));
  const width = Math.max(...tools.map((t) => t.name.length)) + 2;
  repl.say(tools.map((t) => `  ${t.name.padEnd(width)}${oneLine(t.description, 70)}`).join('\n'));
  return undefined;
}

/** `/toolsets`: the toolsets the registry knows, with their tools; requested ones marked. */
export function toolsetsCommand(repl: Repl): undefined {
  const groups = new Map<string, string[]>();
  for (const tool of repl.session.registry.list()) {
    const names = groups.get(tool.toolset) ?? [];
    names.push(tool.name);
    groups.set(tool.toolset, names);
  }
  const requested = new Set(repl.session.setup.config.toolsets ?? ['hermes-cli']);
  const lines = [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([set, names]) => `  ${requested.has(set) ? '●' : '○'} ${set}: ${names.sort().join(', ')}`,
    );
  lines.push('', `● requested (${[...requested].join(', ')}); toolsets may include others.`);
  repl.say(lines.join('\n'));
  return undefined;
}

/** `/skills`: the skills the agent can load, and how to run one. */
export function skillsCommand(repl: Repl): undefined {
  const { skills } = repl.session.skills.catalog();
  if (skills.length === 0) {
    repl.say('No skills found. Put SKILL.md folders in HERMES_HOME/skills.');
    return undefined;
  }
  const lines = skills.map(
    (s) => `  /${s.name}  ${repl.options.style.dim(oneLine(s.description, 70))}`,
  );
  lines.push('', 'Run one with /<skill-name> [instruction].');
  repl.say(lines.join('\n'));
  return undefined;
}

/** `/memory`: the contents of MEMORY.md and USER.md. */
export function memoryCommand(repl: Repl): undefined {
  const dir = join(repl.session.setup.config.hermesHome, 'memories');
  const parts: string[] = [];
  for (const file of ['MEMORY.md', 'USER.md']) {
    const path = join(dir, file);
    const text = existsSync(path) ? readFileSync(path, 'utf8').trim() : '';
    parts.push(`── ${file} ──`, text || repl.options.style.dim('(empty)'));
  }
  repl.say(parts.join('\n'));
  return undefined;
}

/**
 * `/compress [topic]`: the agent loop compresses on its own when the context fills up; a manual
 * trigger needs an `Agent.compress(focus)` entry point that @hermes/loop does not offer yet.
 */
export async function compressCommand(repl: Repl, args: string): Promise<undefined> {
  const agent = repl.session.agent;
  if (agent.messages.length === 0) {
    repl.say('Nothing to compress yet.');
    return undefined;
  }
  const report = await agent.compress(args || undefined);
  if (!report.ok) {
    repl.say(
      `Compression failed: ${report.error ?? 'unknown error'}; the conversation is unchanged.`,
    );
  } else if (!report.changed) {
    repl.say('Nothing to compress: the conversation is already as short as it can be.');
  } else {
    repl.say(
      `Compressed ${report.messagesBefore} → ${report.messagesAfter} messages ` +
        `(~${formatTokens(report.tokensBefore)} → ~${formatTokens(report.tokensAfter)} tokens)` +
        `${args ? ` focusing on "${args}"` : ''}. Old messages stay searchable.`,
    );
  }
  return undefined;
}
