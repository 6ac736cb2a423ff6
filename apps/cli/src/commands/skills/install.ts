/**
 * Installing a skill folder into `HERMES_HOME/skills/<category>/<name>`: the `SKILL.md` must
 * parse and validate, every file must pass the same content scan `skill_manage` applies (a skill
 * is loaded verbatim into the model's context), symbolic links are refused, and an installed
 * skill is replaced only with `--force`.
 */
import {
  cpSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { HermesError } from '@hermes/protocol';
import {
  describeFindings,
  MAX_SUPPORTING_FILE_BYTES,
  readSkillFile,
  SKILL_FILE,
  SKILL_NAME_PATTERN,
  scanSkillContent,
} from '@hermes/skills';

/** The code of a refused install. */
export const SKILL_INSTALL_REFUSED_CODE = 'skills.install_refused';

/** Most files one skill folder may hold. */
const MAX_FILES = 200;

/** What was installed. */
export interface InstalledSkill {
  readonly name: string;
  readonly category: string;
  readonly dir: string;
  readonly files: number;
  readonly replaced: boolean;
}

function refused(message: string): HermesError {
  return new HermesError(SKILL_INSTALL_REFUSED_CODE, message);
}

/** Every file under `dir`, relative; refuses links and oversized or too many files. */
function listFiles(dir: string, base = dir, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (lstatSync(path).isSymbolicLink()) {
      throw refused(
        `${relative(base, path)} is a symbolic link; copy the real file into the skill.`,
      );
    }
    if (entry.isDirectory()) listFiles(path, base, out);
    else if (entry.isFile()) {
      if (statSync(path).size > MAX_SUPPORTING_FILE_BYTES) {
        throw refused(`${relative(base, path)} is larger than ${MAX_SUPPORTING_FILE_BYTES} bytes.`);
      }
      out.push(relative(base, path));
    }
    if (out.length > MAX_FILES) throw refused(`the folder holds more than ${MAX_FILES} files.`);
  }
  return out;
}

/** Scans every text file; binary files (with a NUL byte) are not instructions and pass. */
function scanFiles(dir: string, files: readonly string[]): void {
  const problems: string[] = [];
  for (const file of files) {
    const bytes = readFileSync(join(dir, file));
    if (bytes.includes(0)) continue;
    const scan = scanSkillContent(bytes.toString('utf8'));
    if (!scan.ok) problems.push(`${file}: ${describeFindings(scan.findings)}`);
  }
  if (problems.length > 0) {
    throw refused(`the content scan refused it:\n  - ${problems.join('\n  - ')}`);
  }
}

function chooseCategory(given: string | undefined, fromSkill: unknown): string {
  const category = given ?? (typeof fromSkill === 'string' ? fromSkill : undefined) ?? 'general';
  if (!SKILL_NAME_PATTERN.test(category) || category.length > 64) {
    throw refused(`category '${category}' is not a valid folder name (a-z, 0-9, ".", "_", "-").`);
  }
  return category;
}

/**
 * Validates the skill at `source` (a folder holding `SKILL.md`, or the `SKILL.md` itself) and
 * copies it into `<localDir>/<category>/<name>`.
 * @throws SkillParseError for an invalid `SKILL.md`; HermesError `skills.install_refused` for a
 * failed scan, a link, an existing skill without `force`, or a bad category.
 */
export function installSkill(
  source: string,
  localDir: string,
  options: { readonly category?: string; readonly force?: boolean } = {},
): InstalledSkill {
  const full = resolve(source);
  const dir = basename(full) === SKILL_FILE ? dirname(full) : full;
  if (!existsSync(join(dir, SKILL_FILE))) {
    throw refused(`${dir} has no ${SKILL_FILE}; point at a skill folder.`);
  }
  const parsed = readSkillFile(join(dir, SKILL_FILE));
  const name = parsed.frontMatter.name;
  const metadata = parsed.frontMatter.metadata as { hermes?: { category?: unknown } } | undefined;
  const category = chooseCategory(options.category, metadata?.hermes?.category);
  const files = listFiles(dir);
  scanFiles(dir, files);
  const target = join(localDir, category, name);
  const replaced = existsSync(target);
  if (replaced && !options.force) {
    throw refused(`${target} already exists; pass --force to replace it.`);
  }
  if (resolve(target) === dir) throw refused('the skill is already installed there.');
  rmSync(target, { recursive: true, force: true });
  cpSync(dir, target, { recursive: true });
  return { name, category, dir: target, files: files.length, replaced };
}
