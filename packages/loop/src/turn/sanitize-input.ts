/** Cleans a user's message before it enters the conversation. */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const MEMORY_FENCE = /<memory-context>[\s\S]*?<\/memory-context>\s*/g;

/**
 * Replaces lone UTF-16 surrogates (which make providers reject the whole request) with U+FFFD,
 * and strips `<memory-context>` fences pasted back from an earlier answer: recalled memory is
 * attached by the agent, never accepted as user input.
 */
export function sanitizeUserInput(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD').replace(MEMORY_FENCE, '');
}
