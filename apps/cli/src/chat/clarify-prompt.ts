/**
 * Answers the `clarify` tool at the terminal: the question, its choices numbered, and a line to
 * pick a number or type a free answer.
 */
import type { ClarifyCallback } from '@hermes/tools';
import type { Asker } from './asker.js';
import type { Style } from './style.js';

/** Maps a typed answer to a choice: `2` picks the second; anything else is the answer itself. */
export function pickChoice(answer: string, choices: readonly string[]): string {
  const trimmed = answer.trim();
  if (/^\d+$/.test(trimmed)) {
    const choice = choices[Number(trimmed) - 1];
    if (choice !== undefined) return choice;
  }
  return trimmed;
}

/** A clarify callback that asks through `asker`; no answer (input ended) says so. */
export function terminalClarify(asker: Asker, style: Style): ClarifyCallback {
  return async (question, choices) => {
    const lines = [`${style.cyan('❓')} ${style.bold(question)}`];
    choices.forEach((choice, index) => {
      lines.push(`   ${style.bold(String(index + 1))}. ${choice}`);
    });
    const prompt =
      choices.length > 0 ? `choose 1-${choices.length} or type an answer ❯ ` : 'answer ❯ ';
    const answer = await asker.ask(lines.join('\n'), prompt);
    return answer === undefined ? '(the user gave no answer)' : pickChoice(answer, choices);
  };
}
