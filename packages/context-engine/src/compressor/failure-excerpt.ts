/**
 * Bounded excerpts of failing tool output for the summarizer. Phase 1 has already shortened old
 * tool results to one line (`[terminal] ran \`npm test\` -> exit 1, 310 lines`), which would
 * leave the summary unable to say *what* failed; the error class, the failing assertion and the
 * stack's first frames come back here, within a per-result and a total budget, redacted.
 */
import { clip } from './message-text.js';
import { redactSecrets } from './redact.js';
import { exitCodeOf } from './tool-result-line.js';

/** Longest excerpt of one failing result. */
export const FAILURE_EXCERPT_CHARS = 1_500;
/** All excerpts of one summarizer request together. */
export const FAILURE_EXCERPTS_BUDGET_CHARS = 6_000;
/** An excerpt smaller than this is not worth sending. */
const MIN_EXCERPT_CHARS = 200;
const HEAD_CHARS = 300;
const TAIL_CHARS = 500;
const KEY_LINE_CHARS = 200;

/** A line that says what went wrong: error classes, failed assertions, stack frames, `FAIL`. */
const KEY_LINE =
  /\[TOOL_ERROR\]|\b[A-Z]\w*(?:Error|Exception)(?::|\b in thread)|\bError:|Traceback \(most recent|\bpanic:|\bFAIL(?:ED)?\b|\bexpected .{1,200}? (?:to|but)\b|npm ERR!|\berror(?:\[\w+\])?:|\bfatal:|^\s+at \S.{0,300}?:\d+/;

/** {@link KEY_LINE} over a whole output at once (one scan, no line array). */
const KEY_LINE_ANYWHERE = new RegExp(KEY_LINE.source, 'm');

/** Whether a tool output reports a failure: a non-zero exit code or an error line. */
export function isFailedToolOutput(output: string): boolean {
  const exit = exitCodeOf(output);
  if (exit !== undefined && exit !== 0) return true;
  return KEY_LINE_ANYWHERE.test(output);
}

/** The first line of `output` that says what went wrong, if any. */
export function firstFailureLine(output: string): string | undefined {
  return output
    .split('\n', 5_000)
    .find((line) => KEY_LINE.test(line) && !/^\s+at /.test(line))
    ?.trim();
}

/**
 * At most `max` characters of `output`: its start, the lines that say what went wrong (with the
 * line after each), and its end.
 */
export function failureExcerpt(output: string, max = FAILURE_EXCERPT_CHARS): string {
  if (output.length <= max) return output;
  const head = output.slice(0, Math.min(HEAD_CHARS, Math.floor(max / 5)));
  const tail = output.slice(-Math.min(TAIL_CHARS, Math.floor(max / 3)));
  let room = max - head.length - tail.length;
  const lines = output.slice(head.length, output.length - tail.length).split('\n');
  const picked: string[] = [];
  for (let i = 0; i < lines.length && room > 0; i++) {
    if (!KEY_LINE.test(lines[i] as string)) continue;
    for (const line of lines.slice(i, i + 2)) {
      const short = clip(line, KEY_LINE_CHARS).replace(/\n/g, ' ');
      if (short.length + 1 > room) break;
      picked.push(short);
      room -= short.length + 1;
    }
    i++;
  }
  const middle = picked.length > 0 ? `\n…\n${picked.join('\n')}\n…\n` : '\n…\n';
  return `${head}${middle}${tail}`;
}

/**
 * Redacted excerpts of the failing outputs among `outputs` (keyed by position), newest first
 * until the total budget is spent.
 */
export function failureExcerpts(outputs: ReadonlyMap<number, string>): Map<number, string> {
  const excerpts = new Map<number, string>();
  let budget = FAILURE_EXCERPTS_BUDGET_CHARS;
  const newestFirst = [...outputs.keys()].sort((a, b) => b - a);
  for (const index of newestFirst) {
    if (budget < MIN_EXCERPT_CHARS) break;
    const output = outputs.get(index) as string;
    if (!isFailedToolOutput(output)) continue;
    // Redacted whole before it is cut, so no label is separated from its value.
    const excerpt = failureExcerpt(redactSecrets(output), Math.min(FAILURE_EXCERPT_CHARS, budget));
    excerpts.set(index, excerpt);
    budget -= excerpt.length;
  }
  return excerpts;
}
