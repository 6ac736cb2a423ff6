/**
 * Which skills to offer: platform, then the `requires_*` / `fallback_for_*` rules. A skill that
 * requires a toolset or tool is hidden when it is unavailable; a fallback skill is hidden while
 * the thing it stands in for IS available, so the model only sees it when it is needed.
 */
import { currentPlatforms, matchesPlatform } from './platform.js';
import type { Skill, SkillConditions } from './skill.js';

/** The runtime facts skills are filtered against. */
export interface SkillFilter {
  /** The chat surface (or several), such as `cli` or `telegram`. */
  readonly platform?: string | readonly string[];
  /** Operating system as `process.platform` spells it; default the current one. */
  readonly os?: string;
  /** Tool names the model can call now. Omitted: tool conditions are not applied. */
  readonly availableTools?: Iterable<string>;
  /** Toolset names enabled now. Omitted: toolset conditions are not applied. */
  readonly availableToolsets?: Iterable<string>;
}

function toSet(values: Iterable<string> | undefined): ReadonlySet<string> | undefined {
  return values === undefined ? undefined : new Set(values);
}

/** The `requires_*` / `fallback_for_*` decision for one skill. */
export function conditionsMet(
  conditions: SkillConditions,
  tools: ReadonlySet<string> | undefined,
  toolsets: ReadonlySet<string> | undefined,
): boolean {
  if (toolsets) {
    if (conditions.fallbackForToolsets.some((t) => toolsets.has(t))) return false;
    if (!conditions.requiresToolsets.every((t) => toolsets.has(t))) return false;
  }
  if (tools) {
    if (conditions.fallbackForTools.some((t) => tools.has(t))) return false;
    if (!conditions.requiresTools.every((t) => tools.has(t))) return false;
  }
  return true;
}

/** The skills to offer under `filter`, in their original order. */
export function filterSkills(skills: readonly Skill[], filter: SkillFilter = {}): Skill[] {
  const here = currentPlatforms(filter.platform, filter.os);
  const tools = toSet(filter.availableTools);
  const toolsets = toSet(filter.availableToolsets);
  return skills.filter(
    (skill) =>
      matchesPlatform(skill.platforms, here) && conditionsMet(skill.conditions, tools, toolsets),
  );
}
