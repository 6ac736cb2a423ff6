/** `/learn`: run the background review now (the learning loop), and say what it did. */
import type { Repl } from './repl.js';

/** Reviews the conversation so far; prints the review's one-line report. */
export async function learnCommand(repl: Repl): Promise<undefined> {
  if (repl.session.agent.messages.length === 0) {
    repl.say('Nothing to learn from yet.');
    return undefined;
  }
  repl.say(await repl.session.learning.runNow());
  return undefined;
}
