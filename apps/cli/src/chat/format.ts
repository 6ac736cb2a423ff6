/** Short, one-line renderings of tool calls and usage for the chat display. */
import type { Usage } from '@hermes/protocol';

const TOOL_EMOJI: Readonly<Record<string, string>> = {
  terminal: '💻',
  process: '⚙️',
  read_file: '📖',
  write_file: '✍️',
  patch: '🩹',
  search_files: '🔎',
  web_search: '🌐',
  web_fetch: '🌐',
  web_extract: '🌐',
  todo: '📋',
  memory: '🧠',
  skill_view: '📚',
  skills_list: '📚',
  skill_manage: '📚',
  session_search: '🗂️',
  delegate_task: '🤝',
  execute_code: '🐍',
  clarify: '❓',
};

/** The emoji shown beside a tool's name. */
export function toolEmoji(name: string): string {
  return TOOL_EMOJI[name] ?? '🔧';
}

/** The argument fields worth showing, most telling first. */
const PREFERRED_KEYS = ['command', 'path', 'pattern', 'query', 'url', 'goal', 'name', 'action'];

/** `text` on one line, cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}

/** The most telling argument of a tool call, shortened; '' when nothing fits. */
export function shortArguments(argumentsJson: string, max = 60): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsJson);
  } catch {
    return oneLine(argumentsJson, max);
  }
  if (typeof parsed !== 'object' || parsed === null) return '';
  const record = parsed as Record<string, unknown>;
  const key =
    PREFERRED_KEYS.find((k) => typeof record[k] === 'string') ??
    Object.keys(record).find((k) => typeof record[k] === 'string');
  return key === undefined ? '' : oneLine(String(record[key]), max);
}

/** `0.4s`, `12s`, `2m05s`. */
export function formatDuration(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

/** `950`, `1.2k`, `3.4M`. */
export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(1)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

/** `$0.0012`; small amounts keep four decimals so they do not read as zero. */
export function formatCost(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** The per-turn usage line: tokens in and out, cache hits, cost, model calls. */
export function usageLine(usage: Usage, costUsd: number, apiCalls: number): string {
  const input = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  const parts = [
    `${formatTokens(input)} in`,
    `${formatTokens(usage.outputTokens)} out`,
    `${formatTokens(usage.cacheReadTokens)} cached`,
    formatCost(costUsd),
    `${apiCalls} call${apiCalls === 1 ? '' : 's'}`,
  ];
  return parts.join(' · ');
}
