/** `clarify`: asks the person a question, with up to four suggested answers. */
import { z } from 'zod';
import type { ToolSpec } from '../tool-spec.js';
import { abortable, eraseArgs } from './define.js';
import { CoreToolError } from './errors.js';

/** Most choices a question may offer. */
export const MAX_CLARIFY_CHOICES = 4;

/** Arguments of `clarify`. */
export const ClarifyArgsSchema = z.object({
  question: z.string().trim().min(1, 'question must not be empty').describe('What to ask'),
  choices: z
    .array(z.string().trim().min(1, 'choices must not be empty strings'))
    .max(MAX_CLARIFY_CHOICES, `offer at most ${MAX_CLARIFY_CHOICES} choices`)
    .optional()
    .describe('Up to 4 suggested answers; the person may still answer freely'),
});
/** Parsed arguments of the tool (see the schema's field descriptions). */
export type ClarifyArgs = z.infer<typeof ClarifyArgsSchema>;

/** The `clarify` tool. Never runs in parallel: it waits on a person. */
export const clarifyTool: ToolSpec = eraseArgs<ClarifyArgs>({
  name: 'clarify',
  toolset: 'clarify',
  emoji: '❓',
  neverParallel: true,
  description:
    'Ask the user a clarifying question when the request is ambiguous or a decision is theirs to make. Optionally offer up to 4 choices. Blocks until they answer.',
  parameters: ClarifyArgsSchema,
  handler: async (args, ctx) => {
    if (!ctx.clarify) {
      throw new CoreToolError(
        'clarify is unavailable: no one can answer in this session (headless). Make a reasonable assumption, state it, and continue.',
      );
    }
    const choices = args.choices ?? [];
    const answer = await abortable(ctx.clarify(args.question, choices), ctx.signal, 'clarify');
    return JSON.stringify({
      question: args.question,
      choices_offered: choices,
      user_response: answer,
    });
  },
});
