/** The `cronjob` tool's arguments, validated by dispatch before the handler runs. */
import { z } from 'zod';

/** What the tool can do. */
export const CRONJOB_ACTIONS = [
  'create',
  'list',
  'update',
  'pause',
  'resume',
  'remove',
  'run',
] as const;

/** Arguments of `cronjob`. */
export const CronjobArgsSchema = z.object({
  action: z.enum(CRONJOB_ACTIONS).describe('What to do'),
  job_id: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe('The job (from action=list); required by update, pause, resume, remove, run'),
  schedule: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe(
      'create/update: "every 2h", a cron expression such as "0 9 * * 1-5", a delay such as "30m" (runs once), or an ISO time (runs once)',
    ),
  prompt: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe(
      'create/update: the complete, self-contained task; the job runs unattended with no memory of this chat',
    ),
  name: z.string().trim().min(1).max(200).optional().describe('create/update: a short label'),
  deliver: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe(
      'Where the answer goes: "origin" (this chat; the default when there is one), "local" (only the output file) or "<platform>:<chat>[:<thread>]"',
    ),
  skills: z
    .array(z.string().trim().min(1))
    .optional()
    .describe('Skills loaded into the job prompt at each run'),
  model: z
    .string()
    .trim()
    .optional()
    .describe('A model for this job instead of the configured one; "" on update clears it'),
  repeat: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('How many times to run; 0 or omitted = forever (a one-shot runs once)'),
});

/** Parsed arguments of `cronjob`. */
export type CronjobArgs = z.infer<typeof CronjobArgsSchema>;

/** What the model reads about `cronjob`. */
export const CRONJOB_DESCRIPTION = [
  'Schedule unattended agent jobs (cron). Actions:',
  'create (schedule + prompt; optional name, deliver, skills, model, repeat),',
  'list, update (job_id + fields to change), pause, resume, remove, run (job_id).',
  'A job runs later with no one present and no memory of this chat, so its prompt must be a',
  'complete, self-contained task. Its final answer is delivered to this chat by default;',
  'an answer of exactly [SILENT] delivers nothing.',
].join(' ');
