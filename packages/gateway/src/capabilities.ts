/** What a platform can do, so the gateway asks instead of branching on platform names. */
import { z } from 'zod';

/**
 * The answers to the gateway's capability questions, for one platform (or one chat on it).
 * Values come from adapter code that may be a third-party plugin, so the gateway validates them.
 */
export const PlatformCapabilitiesSchema = z.object({
  /**
   * The longest message the platform accepts, as measured by the adapter's `messageLength`
   * (Telegram 4,096, Discord 2,000, SMS 160). Use a large number when there is no limit.
   */
  maxMessageLength: z.number().int().positive(),
  /** A sent message can be edited in place (status lines, streamed replies). */
  canEdit: z.boolean(),
  /** The platform shows a draft that updates as the reply streams (`sendDraft`). */
  supportsDrafts: z.boolean(),
  /**
   * The platform decides who may talk to the agent (a workspace, an API key), so the gateway's
   * own allowlist and pairing step are skipped.
   */
  hasOwnAccessPolicy: z.boolean(),
  /** Conversations can branch into threads, addressed by `threadId`. */
  supportsThreads: z.boolean(),
  /** The platform renders some form of Markdown (after `renderMarkdown`). */
  supportsMarkdown: z.boolean(),
});
export type PlatformCapabilities = z.infer<typeof PlatformCapabilitiesSchema>;
