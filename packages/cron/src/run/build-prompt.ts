/**
 * Assembling what a job's agent reads: an unattended-run preamble, the loaded skills and the
 * job's prompt, each scanned before any model sees it (seed 12.3). The user's prompt is scanned
 * strictly; skill bodies leniently, because skills legitimately hold command-shaped text — only
 * an injection in them blocks, and invisible characters are stripped rather than refused.
 */
import { HermesError } from '@hermes/protocol';
import { scanSkillContent } from '@hermes/skills';
import type { CronJob } from '../job.js';
import { CronPromptInjectionBlocked } from './prompt-blocked.js';
import { SILENT_MARKER } from './silent.js';

/** Loads a skill's body by name; undefined when no such skill is installed. */
export type SkillLoader = (name: string) => Promise<string | undefined>;

// Zero-width, bidirectional-override, word-joiner, BOM and Unicode tag characters: the same set
// the content scan reports, removed here so a skill cannot smuggle hidden text into a run.
const INVISIBLE =
  /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/g;

/** Removes invisible characters from `text`. */
export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}

/** The unattended-run preamble every job prompt starts with. */
export function cronPreamble(job: CronJob): string {
  return [
    `You are running the scheduled job "${job.name}" unattended.`,
    'Nobody is watching this run and nobody can answer questions: do not ask for clarification or',
    'confirmation; make reasonable assumptions and finish the task.',
    'Your final answer is what gets delivered to the owner, so make it the complete report.',
    `If there is nothing worth reporting, answer exactly ${SILENT_MARKER} and nothing else; that`,
    'answer is not delivered.',
  ].join('\n');
}

function scanPrompt(prompt: string): void {
  const scan = scanSkillContent(prompt);
  if (!scan.ok) throw new CronPromptInjectionBlocked({ kind: 'prompt' }, scan.findings);
}

async function loadScannedSkill(name: string, loadSkill: SkillLoader): Promise<string> {
  const body = await loadSkill(name);
  if (body === undefined) {
    throw new HermesError(
      'cron.skill_missing',
      `skill "${name}" is not installed; install it or remove it from the job (cronjob update skills)`,
      { details: { skill: name } },
    );
  }
  const clean = stripInvisible(body);
  const injections = scanSkillContent(clean).findings.filter(
    (f) => f.threat === 'prompt-injection',
  );
  if (injections.length > 0)
    throw new CronPromptInjectionBlocked({ kind: 'skill', name }, injections);
  return clean.trim();
}

/**
 * The full prompt for one run of `job`: preamble, each skill under `## Skill: <name>`, then the
 * task under `## Task`.
 *
 * @throws CronPromptInjectionBlocked when the prompt or a skill fails the scan.
 * @throws HermesError `cron.skill_missing` naming a skill `loadSkill` does not know.
 */
export async function buildJobPrompt(job: CronJob, loadSkill: SkillLoader): Promise<string> {
  scanPrompt(job.prompt);
  const sections = [cronPreamble(job)];
  for (const name of job.skills) {
    sections.push(`## Skill: ${name}\n\n${await loadScannedSkill(name, loadSkill)}`);
  }
  sections.push(`## Task\n\n${job.prompt.trim()}`);
  return sections.join('\n\n');
}
