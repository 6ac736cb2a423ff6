/**
 * One-line stand-ins for old tool results, such as
 * `[terminal] ran \`npm test\` -> exit 0, 47 lines`. The model keeps knowing what was run and
 * how it went; the full output stays in the archived session, reachable with `session_search`.
 */
import type { ToolCall } from '@hermes/protocol';

/** Longest argument value quoted in a one-line summary. */
const MAX_QUOTED_CHARS = 80;

/** Argument keys that best describe a call, in order of preference. */
const DESCRIPTIVE_KEYS = ['command', 'path', 'file_path', 'url', 'query', 'pattern', 'name'];

const EXIT_CODE = /\bexit(?:[ _-]?code)?["']?\s*[:=]?\s*(-?\d{1,3})\b/i;

/** Parses the raw argument JSON; anything but an object yields `{}`. */
function parseArguments(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** Shortens `text` to one line of at most {@link MAX_QUOTED_CHARS} characters. */
function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_QUOTED_CHARS ? `${line.slice(0, MAX_QUOTED_CHARS - 1)}…` : line;
}

/** What the call did, in a few words: "ran `cmd`" or "path=src/a.ts". */
function describeCall(call: ToolCall | undefined): string {
  if (!call) return 'returned';
  const args = parseArguments(call.function.arguments);
  const key =
    DESCRIPTIVE_KEYS.find((k) => typeof args[k] === 'string') ??
    Object.keys(args).find((k) => typeof args[k] === 'string');
  if (key === undefined) return 'called';
  const value = quote(args[key] as string);
  return key === 'command' ? `ran \`${value}\`` : `${key}=${value}`;
}

/** Counts lines the way a person would: a trailing newline does not start a new line. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** The exit code an output reports near its start or end, if it reports one. */
export function exitCodeOf(output: string): number | undefined {
  const exit = EXIT_CODE.exec(output.slice(0, 2_000)) ?? EXIT_CODE.exec(output.slice(-2_000));
  return exit ? Number(exit[1]) : undefined;
}

/** The one-line summary of a tool result. */
export function summarizeToolResult(
  toolName: string | undefined,
  call: ToolCall | undefined,
  output: string,
): string {
  const name = toolName ?? call?.function.name ?? 'tool';
  const facts: string[] = [];
  const exit = exitCodeOf(output);
  if (exit !== undefined) facts.push(`exit ${exit}`);
  const lines = countLines(output);
  facts.push(`${lines} ${lines === 1 ? 'line' : 'lines'}`);
  return `[${name}] ${describeCall(call)} -> ${facts.join(', ')}`;
}
