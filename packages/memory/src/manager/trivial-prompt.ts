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
 * One `/<skill>` expansion block as `@hermes/skills` writes it
 * (`<skill-invocation name="…">…</skill-invocation>`, the user's own words after it). This
 * package may not import the skills package, so the format is recognized here; the loop's tests
 * check that both agree.
 */
export const SKILL_SCAFFOLD_BLOCK =
  /<skill-invocation name="[^"\n]*">[\s\S]*?<\/skill-invocation>\n*/g;

/**
 * The user's own words in a message built from a `/<skill>` expansion: the text around the
 * scaffold block, or '' when the user gave none. Other messages come back unchanged. Without
 * this, a whole skill body would be taken for what the user is asking about.
 */
export function stripSkillScaffolding(message: string): string {
  if (!message.includes('<skill-invocation name="')) return message;
  return message.replace(SKILL_SCAFFOLD_BLOCK, '').trim();
}
