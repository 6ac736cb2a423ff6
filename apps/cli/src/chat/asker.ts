/** How prompts (approval, clarify) get one line of answer from the person at the REPL. */

/** Asks one question and resolves with the answer line, or undefined when none will come. */
export interface Asker {
  /**
   * Shows `details` (complete lines) and then `question` as the prompt, and waits for the next
   * line. Resolves undefined when `signal` aborts or the input ends.
   */
  ask(details: string, question: string, signal?: AbortSignal): Promise<string | undefined>;
}
