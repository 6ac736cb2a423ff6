/**
 * Prompt-cache breakpoints for the Messages API, the seed's `system_and_3` strategy.
 *
 * Anthropic caches the request prefix up to each block marked `cache_control`, and allows at
 * most four such breakpoints per request. An agent re-sends the same prefix on every iteration,
 * so Hermes marks:
 * 1. the last block of the system prompt (the prefix covers the tools and the system prompt,
 *    which stay byte-identical for a whole session), and
 * 2. the last block of each of the newest messages, as many as the remaining breakpoints allow:
 *    three when there is a system prompt, four when there is none (the original's budget of four
 *    in total). The breakpoint that moves forward with the conversation writes the new tail to
 *    the cache; the ones behind it read what the previous iterations wrote.
 *
 * Thinking blocks cannot carry `cache_control`, so a message whose last block is thinking is
 * marked on its last other block. The messages counted are those actually sent, after
 * consecutive tool results were merged into one user message.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { AnthropicConversation } from './anthropic-messages-input.js';
import type { PromptCacheTtl } from './anthropic-options.js';

/** The most `cache_control` breakpoints the Messages API accepts in one request. */
export const MAX_CACHE_BREAKPOINTS = 4;

/** Blocks that may carry a breakpoint (of those the adapter sends). */
type CacheableBlock =
  | Anthropic.TextBlockParam
  | Anthropic.ImageBlockParam
  | Anthropic.ToolUseBlockParam
  | Anthropic.ToolResultBlockParam;

function isCacheable(block: Anthropic.ContentBlockParam): block is CacheableBlock {
  return (
    block.type === 'text' ||
    block.type === 'image' ||
    block.type === 'tool_use' ||
    block.type === 'tool_result'
  );
}

function marker(ttl: PromptCacheTtl): Anthropic.CacheControlEphemeral {
  // 5 minutes is the API's default; sending it explicitly would change nothing but the bytes.
  return ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
}

/** Marks the last cacheable block of `content`; false when it has none (or is a string). */
function markLast(content: Anthropic.MessageParam['content'], ttl: PromptCacheTtl): boolean {
  if (typeof content === 'string') return false;
  for (let i = content.length - 1; i >= 0; i--) {
    const block = content[i];
    if (block !== undefined && isCacheable(block)) {
      block.cache_control = marker(ttl);
      return true;
    }
  }
  return false;
}

/**
 * Adds the breakpoints to `conversation` in place (call it on the fresh blocks that
 * `toAnthropicConversation` built, never on caller data). Returns how many it placed, at most
 * {@link MAX_CACHE_BREAKPOINTS}.
 */
export function applyPromptCaching(
  conversation: AnthropicConversation,
  ttl: PromptCacheTtl,
): number {
  let used = 0;
  const lastSystem = conversation.system.at(-1);
  if (lastSystem !== undefined) {
    lastSystem.cache_control = marker(ttl);
    used++;
  }
  const { messages } = conversation;
  for (let i = messages.length - 1; i >= 0 && used < MAX_CACHE_BREAKPOINTS; i--) {
    const message = messages[i];
    if (message !== undefined && markLast(message.content, ttl)) used++;
  }
  return used;
}
