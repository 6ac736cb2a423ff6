/**
 * What the per-turn memory prefetch looks at: the user's own words. One shared classifier of
 * "trivial" prompts, so the core's prefetch gate and any provider-side filter never disagree.
 */

// Acknowledgements, greetings and go-aheads carry no topic to recall anything about, and
// injecting memories after "ok" tends to derail a one-word reply.
const TRIVIAL_PROMPT =
  /^(?:yes|no|ok|okay|sure|thanks|thank you|thx|ty|y|n|yep|nope|yeah|nah|hi|hey|hello|yo|sup|continue|go ahead|do it|proceed|got it|cool|nice|great|done|next|lgtm|k)[\s!?.:;,"'~…—–()[\]{}<>*&^%$#@+=`]*$/i;

/**
 * True for prompts with nothing to recall memories for: empty text, slash commands, and short
 * acknowledgements or greetings (`ok`, `thanks!`, `hi`, `continue`, `lgtm`, …).
 */
export function isTrivialPrompt(text: string | null | undefined): boolean {
  if (!text) return true;
  const stripped = text.trim();
  if (stripped === '') return true;
  if (stripped.startsWith('/')) return true;
  return TRIVIAL_PROMPT.test(stripped);
}

/**
 * The header line that starts a message built by expanding `/<skill>`; the skill's body follows.
 * The skills package writes it; this package only recognizes it.
 */
export const SKILL_SCAFFOLD_HEADER =
  /^\[SYSTEM: The user has invoked the "[^"\n]*" skill[^\n]*\]\s*$/m;

/** Introduces the user's own words after an expanded skill body. */
export const SKILL_SCAFFOLD_INSTRUCTION_MARKER =
  'The user has provided the following instruction alongside the skill invocation:';

/**
 * The user's own words in a message built from a `/<skill>` expansion: the text after the
 * instruction marker, or '' when the user gave none. Other messages come back unchanged. Without
 * this, a whole skill body would be taken for what the user is asking about.
 */
export function stripSkillScaffolding(message: string): string {
  const header = SKILL_SCAFFOLD_HEADER.exec(message);
  if (!header) return message;
  const marker = message.lastIndexOf(SKILL_SCAFFOLD_INSTRUCTION_MARKER);
  if (marker < 0) return message.slice(0, header.index).trim();
  const before = message.slice(0, header.index).trim();
  const after = message.slice(marker + SKILL_SCAFFOLD_INSTRUCTION_MARKER.length).trim();
  return [before, after].filter((part) => part !== '').join('\n');
}
