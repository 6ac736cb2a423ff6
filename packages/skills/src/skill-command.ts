/**
 * `/<skill> rest` in a user message: the skill's procedure is put into the message, wrapped in
 * scaffold markers, followed by what the user typed. Anything that needs only the user's own
 * words (memory prefetch, session titles) cuts the scaffold out with {@link stripSkillScaffold}.
 */
import type { Skill } from './skill.js';

/** Start of the scaffold; the full opening tag is `<skill-invocation name="NAME">`. */
export const SKILL_SCAFFOLD_OPEN_PREFIX = '<skill-invocation name="';

/** End of the scaffold. Text after it is the user's own instruction. */
export const SKILL_SCAFFOLD_CLOSE = '</skill-invocation>';

/** Matches one whole scaffold block and the blank lines after it. */
export const SKILL_SCAFFOLD_PATTERN =
  /<skill-invocation name="[^"\n]*">[\s\S]*?<\/skill-invocation>\n*/g;

const COMMAND = /^\/([a-z0-9][a-z0-9._-]*)(?:[ \t]+|\n|$)([\s\S]*)$/;

/** The result of expanding a skill command. */
export interface SkillExpansion {
  readonly skill: Skill;
  /** What the user typed after the command, trimmed (may be empty). */
  readonly instruction: string;
  /** The user message to send: scaffold, then the instruction. */
  readonly message: string;
}

/** Builds the scaffolded message for `skill` and the user's `instruction`. */
export function renderSkillInvocation(skill: Skill, instruction: string): string {
  const scaffold = [
    `${SKILL_SCAFFOLD_OPEN_PREFIX}${skill.name}">`,
    `[The user invoked the "${skill.name}" skill. Follow the procedure below for this request.]`,
    '',
    skill.body,
    '',
    `[Skill folder: ${skill.dir}. Load its supporting files with skill_view("${skill.name}", file_path).]`,
    // Inside the scaffold, so stripping leaves an empty (trivial) user message.
    ...(instruction ? [] : ['[No further instruction: apply the skill to the current task.]']),
    SKILL_SCAFFOLD_CLOSE,
  ].join('\n');
  return instruction ? `${scaffold}\n\n${instruction}` : scaffold;
}

/**
 * Expands `/<name> rest` when `name` is one of `skills`; returns undefined for any other text
 * (including unknown slash commands, which belong to someone else).
 */
export function expandSkillCommand(
  text: string,
  skills: Iterable<Skill> | ReadonlyMap<string, Skill>,
): SkillExpansion | undefined {
  const match = COMMAND.exec(text.trimStart());
  if (!match) return undefined;
  const name = match[1] ?? '';
  const skill = findSkill(skills, name);
  if (!skill) return undefined;
  const instruction = (match[2] ?? '').trim();
  return { skill, instruction, message: renderSkillInvocation(skill, instruction) };
}

function findSkill(
  skills: Iterable<Skill> | ReadonlyMap<string, Skill>,
  name: string,
): Skill | undefined {
  if (skills instanceof Map) return skills.get(name);
  for (const skill of skills as Iterable<Skill>) if (skill.name === name) return skill;
  return undefined;
}

/** Removes every skill scaffold, leaving only what the user wrote. */
export function stripSkillScaffold(text: string): string {
  return text.replace(SKILL_SCAFFOLD_PATTERN, '').trim();
}
