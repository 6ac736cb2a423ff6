/** The answers to "may this command run?", shared by the approval layer, the loop and the apps. */
import { z } from 'zod';

/**
 * `once` allows this command now; `session` allows its pattern for the rest of the session;
 * `always` adds it to the permanent allowlist; `deny` refuses it.
 */
export const ApprovalDecisionSchema = z.enum(['once', 'session', 'always', 'deny']);
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;
