/**
 * `hermes skills list|view <name>|install <path>`: the skills Hermes can load, from
 * `HERMES_HOME/skills`, `skills.external_dirs` and the bundled folder (highest precedence first).
 */
import { ExitCode } from '@hermes/config';
import { isHermesError } from '@hermes/protocol';
import { loadHermesConfig } from '@hermes/runtime';
import {
  findBundledSkillsDir,
  listSupportingFiles,
  type Skill,
  SkillsLibrary,
} from '@hermes/skills';
import type { CommandContext } from '../command-context.js';
import { parseCommandArgs, stringOption, usageFailure, withUsage } from '../config/command-args.js';
import { oneLine, table } from './sessions/format.js';
import { installSkill } from './skills/install.js';

const USAGE = `Usage: hermes skills <subcommand>

  list [--json]                          every skill, grouped by category
  view <name>                            a skill's SKILL.md and its supporting files
  install <path> [--category C] [--force]
                                         validate, scan and copy a skill folder into
                                         HERMES_HOME/skills/<category>/<name>
`;

async function library(ctx: CommandContext): Promise<SkillsLibrary> {
  const config = await loadHermesConfig(ctx);
  const bundledDir = findBundledSkillsDir();
  return new SkillsLibrary({
    hermesHome: ctx.hermesHome,
    externalDirs: config.skillDirs,
    ...(bundledDir ? { bundledDir } : {}),
    snapshotFile: false,
  });
}

function listing(skills: readonly Skill[]): string[] {
  const byCategory = new Map<string, Skill[]>();
  for (const skill of skills) {
    const key = skill.category ?? '(uncategorized)';
    byCategory.set(key, [...(byCategory.get(key) ?? []), skill]);
  }
  const out: string[] = [];
  for (const category of [...byCategory.keys()].sort()) {
    out.push(`${category}:`);
    const rows = (byCategory.get(category) ?? []).map((s) => [
      `  ${s.name}`,
      s.source,
      oneLine(s.description, 80),
    ]);
    out.push(...table(rows), '');
  }
  return out;
}

async function list(values: Readonly<Record<string, string | boolean>>, ctx: CommandContext) {
  const catalog = (await library(ctx)).catalog();
  if (values.json) {
    const rows = catalog.skills.map(({ name, description, category, source, dir }) => ({
      name,
      description,
      category: category ?? null,
      source,
      dir,
    }));
    ctx.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return ExitCode.ok;
  }
  if (catalog.skills.length === 0) ctx.stdout.write('No skills found.\n');
  else ctx.stdout.write(`${listing(catalog.skills).join('\n')}`);
  for (const problem of catalog.problems)
    ctx.stderr.write(`warning: ${problem.file}: ${problem.message}\n`);
  return ExitCode.ok;
}

async function view(name: string | undefined, ctx: CommandContext): Promise<number> {
  if (name === undefined) return usageFailure(ctx, 'skills', "'view' needs a skill name");
  const skill = (await library(ctx)).get(name);
  if (!skill) {
    ctx.stderr.write(`hermes skills: no skill '${name}'; see 'hermes skills list'\n`);
    return ExitCode.failure;
  }
  ctx.stdout.write(`# ${skill.name} (${skill.source}: ${skill.file})\n\n${skill.body}\n`);
  const files = listSupportingFiles(skill.dir);
  const all = Object.values(files).flat();
  if (all.length > 0)
    ctx.stdout.write(`\nSupporting files:\n${all.map((f) => `  ${f}`).join('\n')}\n`);
  return ExitCode.ok;
}

function install(
  path: string | undefined,
  values: Readonly<Record<string, string | boolean>>,
  ctx: CommandContext,
): number {
  if (path === undefined)
    return usageFailure(ctx, 'skills', "'install' needs the path of a skill folder");
  const category = stringOption(values, 'category');
  const localDir = new SkillsLibrary({ hermesHome: ctx.hermesHome, snapshotFile: false }).localDir;
  const installed = installSkill(path, localDir, {
    ...(category ? { category } : {}),
    force: values.force === true,
  });
  ctx.stdout.write(
    `${installed.replaced ? 'Replaced' : 'Installed'} skill ${installed.name} (${installed.files} files) in ${installed.dir}\n`,
  );
  return ExitCode.ok;
}

/** Runs `hermes skills`; resolves to the exit code. */
export function run(args: readonly string[], ctx: CommandContext): Promise<number> {
  return withUsage(ctx, 'skills', async () => {
    const { values, positionals } = parseCommandArgs(args, {
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean' },
      category: { type: 'string' },
      force: { type: 'boolean' },
    });
    const [sub = 'list', arg] = positionals;
    if (values.help || sub === 'help') {
      ctx.stdout.write(USAGE);
      return ExitCode.ok;
    }
    try {
      if (sub === 'list') return await list(values, ctx);
      if (sub === 'view') return await view(arg, ctx);
      if (sub === 'install') return install(arg, values, ctx);
    } catch (error) {
      if (!isHermesError(error)) throw error;
      ctx.stderr.write(`hermes skills: ${error.message}\n`);
      return ExitCode.failure;
    }
    return usageFailure(ctx, 'skills', `unknown subcommand '${sub}'`);
  });
}
