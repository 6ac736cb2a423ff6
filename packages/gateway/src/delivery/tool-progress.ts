/** Tool progress lines (`💻 terminal: ls -la`) as a chat shows them, per `display.tool_progress`. */
import type { AgentEventOf } from '@hermes/protocol';
import type { ToolProgress } from '../settings/gateway-settings.js';
import { redactCommand, redactForChat } from './redact-for-chat.js';

/** The longest argument preview on a progress line. */
export const MAX_PROGRESS_PREVIEW = 80;

const TOOL_EMOJI: Readonly<Record<string, string>> = {
  terminal: '💻',
  process: '⚙️',
  execute_code: '🐍',
  read_file: '📖',
  write_file: '✍️',
  patch: '🩹',
  search_files: '🔎',
  web_search: '🔍',
  web_extract: '🌐',
  browser: '🌐',
  vision_analyze: '👁️',
  image_generate: '🎨',
  text_to_speech: '🔊',
  todo: '📋',
  memory: '🧠',
  clarify: '❓',
  delegate_task: '🤝',
};

/** The argument that says most about a call, by the name tools give it. */
const PRIMARY_ARGUMENTS = [
  'command',
  'code',
  'path',
  'file_path',
  'query',
  'url',
  'pattern',
  'goal',
  'name',
];

function primaryArgument(argumentsJson: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsJson);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const args = parsed as Record<string, unknown>;
  for (const key of PRIMARY_ARGUMENTS) {
    if (typeof args[key] === 'string') return args[key];
  }
  return Object.values(args).find((value): value is string => typeof value === 'string');
}

function shorten(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= MAX_PROGRESS_PREVIEW
    ? oneLine
    : `${oneLine.slice(0, MAX_PROGRESS_PREVIEW - 1)}…`;
}

/**
 * `💻 terminal: ls -la`: the tool's emoji (🔧 when it has none), its name, and its main argument
 * on one line, redacted (commands with {@link redactCommand}) and cut to
 * {@link MAX_PROGRESS_PREVIEW} characters.
 */
export function formatToolLine(name: string, argumentsJson: string): string {
  const emoji = TOOL_EMOJI[name] ?? '🔧';
  const argument = primaryArgument(argumentsJson);
  if (argument === undefined || argument.trim() === '') return `${emoji} ${name}`;
  const redacted =
    name === 'terminal' || name === 'process' ? redactCommand(argument) : redactForChat(argument);
  return `${emoji} ${name}: ${shorten(redacted)}`;
}

/**
 * `⚖️ smart approval denied: rm -rf build (deletes the build output)`: the smart judge's ruling
 * on a command, redacted and cut like a tool line; `undefined` for rulings made by anyone else
 * (the user saw those happen, and a policy's are the tool's own line).
 */
export function formatSmartRuling(event: AgentEventOf<'approval_resolution'>): string | undefined {
  if (event.decidedBy !== 'smart') return undefined;
  const verb = event.decision === 'deny' ? 'denied' : 'approved';
  const command = shorten(redactCommand(event.command ?? ''));
  const reason = shorten(redactForChat(event.reason ?? ''));
  return `⚖️ smart approval ${verb}${command ? `: ${command}` : ''}${reason ? ` (${reason})` : ''}`;
}

/** The mark appended to a call's line when it did not succeed. */
export function toolOutcomeMark(outcome: AgentEventOf<'tool_call_end'>['outcome']): string {
  if (outcome === 'error') return ' ✗';
  if (outcome === 'cancelled') return ' (cancelled)';
  return '';
}

/** Decides which calls get a line: `all`, `new` (the tool differs from the previous), `off`. */
export class ToolProgressFilter {
  readonly #mode: ToolProgress;
  #previous: string | undefined;

  constructor(mode: ToolProgress) {
    this.#mode = mode;
  }

  /** Whether the call `name` gets a line; every call counts as "previous" for `new`. */
  shows(name: string): boolean {
    const previous = this.#previous;
    this.#previous = name;
    if (this.#mode === 'off') return false;
    return this.#mode === 'all' || previous !== name;
  }
}
