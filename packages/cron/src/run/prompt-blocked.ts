/**
 * The refusal raised when a job's definition carries a prompt injection (seed 12.3). It guards
 * what the job *is* — its prompt and the skills loaded into it — before any model sees them; an
 * unattended run has nobody to notice a hijacked agent.
 */
import { HermesError } from '@hermes/protocol';
import { type ContentFinding, describeFindings } from '@hermes/skills';

/** Error code of {@link CronPromptInjectionBlocked}. */
export const CRON_PROMPT_BLOCKED_CODE = 'cron.prompt_blocked';

/** Where a blocked passage came from: the job's own prompt or a named skill. */
export type BlockedSource =
  | { readonly kind: 'prompt' }
  | { readonly kind: 'skill'; readonly name: string };

function describeSource(source: BlockedSource): string {
  return source.kind === 'prompt' ? "the job's prompt" : `skill "${source.name}"`;
}

/**
 * Thrown by `buildJobPrompt` when the prompt or a loaded skill fails the content scan. The
 * message names the source and the reasons (line, rule), never the payload itself, so it is safe
 * to store and to send to the owner.
 */
export class CronPromptInjectionBlocked extends HermesError {
  /** What the scan found. */
  readonly findings: readonly ContentFinding[];
  /** Which part of the job was refused. */
  readonly source: BlockedSource;

  constructor(source: BlockedSource, findings: readonly ContentFinding[]) {
    super(
      CRON_PROMPT_BLOCKED_CODE,
      `${describeSource(source)} was refused: ${describeFindings(findings)}`,
      {
        details: {
          source: source.kind === 'prompt' ? 'prompt' : `skill:${source.name}`,
          findings: findings.map((f) => f.id),
        },
      },
    );
    this.findings = findings;
    this.source = source;
  }
}
