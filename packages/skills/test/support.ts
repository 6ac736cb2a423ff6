/** Helpers shared by the skills tests: writing real SKILL.md files into temporary folders. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';

/** The per-test HERMES_HOME that tools/test-setup/hermes-home.ts created. */
export function hermesHome(): string {
  const home = process.env.HERMES_HOME;
  if (!home) throw new Error('HERMES_HOME is not set: the shared test setup did not run');
  return home;
}

/** A fresh folder under HERMES_HOME for extra skill roots (removed with the home). */
export function tempRoot(label: string): string {
  return mkdtempSync(join(hermesHome(), `${label}-`));
}

/** Front matter + body as SKILL.md text. */
export function skillText(
  frontMatter: Record<string, unknown>,
  body = '# Steps\n\n1. Do it.\n',
): string {
  return `---\n${stringify(frontMatter)}---\n\n${body}`;
}

/** Writes `<root>/<category>/<name>/SKILL.md` (or `<root>/<name>/…` without a category). */
export function writeSkill(
  root: string,
  name: string,
  options: { category?: string; frontMatter?: Record<string, unknown>; body?: string } = {},
): string {
  const dir = options.category ? join(root, options.category, name) : join(root, name);
  mkdirSync(dir, { recursive: true });
  const frontMatter = { name, description: `Use ${name} when needed.`, ...options.frontMatter };
  writeFileSync(join(dir, 'SKILL.md'), skillText(frontMatter, options.body));
  return dir;
}
