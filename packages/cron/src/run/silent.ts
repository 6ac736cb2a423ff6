/** The answer that means "nothing to report": the run succeeded and nothing is delivered. */

/** An answer that is exactly this (after trimming) suppresses delivery. */
export const SILENT_MARKER = '[SILENT]';

/** True when `answer` is the silent marker and nothing else. */
export function isSilentAnswer(answer: string): boolean {
  return answer.trim() === SILENT_MARKER;
}
