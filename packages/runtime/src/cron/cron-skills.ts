/**
 * Skill bodies for a job's `skills`, read through the same library the agents use: the skill
 * folders config.yaml names, `HERMES_HOME/skills` and the bundled skills, in their precedence.
 */
import type { SkillLoader } from '@hermes/cron';
import { findBundledSkillsDir, SkillsLibrary } from '@hermes/skills';
import type { HermesConfig } from '../config/hermes-config.js';

/**
 * A loader over one library for `config`. The library re-reads a folder that changed, so a
 * skill installed while the gateway runs is found by the next run.
 */
export function cronSkillLoader(config: HermesConfig): SkillLoader {
  let library: SkillsLibrary | undefined;
  return async (name) => {
    const bundledDir = findBundledSkillsDir();
    library ??= new SkillsLibrary({
      hermesHome: config.hermesHome,
      externalDirs: [...config.skillDirs],
      ...(bundledDir ? { bundledDir } : {}),
    });
    return library.get(name)?.body;
  };
}
