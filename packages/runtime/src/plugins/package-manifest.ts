/**
 * Reading one plugin folder's `package.json`: the `"hermes"` field validated with the SDK's
 * schema, and the entry file found the way Node would for an `import` of the package.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { type PluginPackageField, PluginPackageJsonSchema } from '@hermes/plugin-sdk';
import type { z } from 'zod';

/** A plugin folder whose `package.json` is valid and whose entry file exists. */
export interface PluginPackage {
  readonly ok: true;
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  /** The folder, symlinks resolved (Node reports module URLs by their real path). */
  readonly dir: string;
  /** The entry file's absolute real path. */
  readonly entry: string;
  readonly manifest: PluginPackageField;
}

/** A plugin folder that cannot be loaded, and why; `name` when the package.json says it. */
export interface PluginPackageProblem {
  readonly ok: false;
  readonly name?: string;
  readonly message: string;
  /** The package.json has no `"hermes"` field: an ordinary package, not a broken plugin. */
  readonly notAPlugin?: true;
}

/** Conditions tried, in order, when `exports` maps one: what an ESM `import` of it would use. */
const ENTRY_CONDITIONS = ['import', 'node', 'default', 'require'] as const;
const INDEX_FILES = ['index.js', 'index.mjs', 'index.cjs'] as const;

/** One line naming every bad field, e.g. `hermes.kind: Invalid option: …`. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

/** The target of `exports` for `.`, or undefined when it names none. */
function exportsTarget(exportsField: unknown): string | undefined {
  if (typeof exportsField === 'string') return exportsField;
  if (Array.isArray(exportsField)) {
    for (const item of exportsField) {
      const found = exportsTarget(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof exportsField !== 'object' || exportsField === null) return undefined;
  const record = exportsField as Record<string, unknown>;
  // Subpath keys start with "."; otherwise the object is the conditions of ".".
  if (Object.keys(record).some((key) => key.startsWith('.'))) return exportsTarget(record['.']);
  for (const condition of ENTRY_CONDITIONS) {
    const found = exportsTarget(record[condition]);
    if (found !== undefined) return found;
  }
  return undefined;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The entry's absolute path, or a problem message. */
async function findEntry(
  dir: string,
  pkg: { readonly main?: string | undefined; readonly exports?: unknown },
): Promise<{ entry: string } | { problem: string }> {
  const declared = exportsTarget(pkg.exports) ?? pkg.main;
  if (declared === undefined) {
    for (const index of INDEX_FILES) {
      if (await isFile(join(dir, index))) return { entry: join(dir, index) };
    }
    return {
      problem: `no entry file: package.json names none and there is no ${INDEX_FILES.join(', ')}`,
    };
  }
  const entry = resolve(dir, declared);
  const inside = relative(dir, entry);
  if (inside.startsWith('..') || isAbsolute(inside)) {
    return { problem: `entry "${declared}" is outside the plugin folder` };
  }
  if (!(await isFile(entry))) return { problem: `entry file "${declared}" does not exist` };
  return { entry };
}

/**
 * Reads `dir/package.json`. A missing or unparsable file, an invalid `"hermes"` field (or a
 * missing one) and a missing entry file are problems whose message names what is wrong.
 */
export async function readPluginPackage(
  folder: string,
): Promise<PluginPackage | PluginPackageProblem> {
  let dir: string;
  let text: string;
  try {
    dir = await realpath(folder);
    text = await readFile(join(dir, 'package.json'), 'utf8');
  } catch {
    return { ok: false, message: 'no package.json' };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `package.json is not JSON: ${(error as Error).message}` };
  }
  const rawName = (json as { name?: unknown } | null)?.name;
  const name = typeof rawName === 'string' && rawName.length > 0 ? rawName : undefined;
  const parsed = PluginPackageJsonSchema.safeParse(json);
  if (!parsed.success) {
    const message = `package.json is not valid: ${describeIssues(parsed.error)}`;
    const notAPlugin = typeof json !== 'object' || json === null || !('hermes' in json);
    return {
      ok: false,
      message,
      ...(name === undefined ? {} : { name }),
      ...(notAPlugin ? { notAPlugin: true as const } : {}),
    };
  }
  const pkg = parsed.data;
  const found = await findEntry(dir, pkg);
  if ('problem' in found) return { ok: false, name: pkg.name, message: found.problem };
  return {
    ok: true,
    name: pkg.name,
    version: pkg.version,
    ...(pkg.description === undefined ? {} : { description: pkg.description }),
    dir,
    entry: await realpath(found.entry),
    manifest: pkg.hermes,
  };
}
