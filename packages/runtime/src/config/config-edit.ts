/**
 * Editing config.yaml one key at a time through the YAML document API, so comments, key order
 * and formatting survive. An edit that would make the file invalid is refused before anything
 * is written; the file is replaced atomically.
 */
import { existsSync, rmSync } from 'node:fs';
import { HermesError } from '@hermes/protocol';
import { isCollection, isScalar, parse } from 'yaml';
import { writeFileAtomic } from './atomic-write.js';
import {
  type ConfigSource,
  formatKeyPath,
  type KeySegment,
  parseConfigText,
  readConfigSource,
} from './config-document.js';
import { isSecretConfigPath } from './secrets.js';
import { checkConfig, configError, formatProblem } from './validate-config.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The code of a refused edit. */
export const CONFIG_EDIT_REFUSED_CODE = 'config.edit_refused';

function refused(message: string): HermesError {
  return new HermesError(CONFIG_EDIT_REFUSED_CODE, message);
}

/**
 * A value typed on the command line, read as YAML: `50` is a number, `true` a boolean,
 * `[a, b]` a list; anything YAML cannot read stays the text as typed.
 */
export function parseValueText(text: string): unknown {
  try {
    const value: unknown = parse(text);
    return value === null && text.trim() !== 'null' && text.trim() !== '~' ? text : value;
  } catch {
    return text;
  }
}

function problemLines(source: ConfigSource, env: Env, hermesHome: string): Set<string> {
  return new Set(checkConfig(source, env, hermesHome).problems.map(formatProblem));
}

/** Problems the edited text has that are not in `before`, or [] when the edit is clean. */
function newProblems(
  before: ReadonlySet<string>,
  afterText: string,
  path: string,
  env: Env,
  home: string,
): string[] {
  const after = problemLines(parseConfigText(afterText, path), env, home);
  return [...after].filter((line) => !before.has(line));
}

function openForEdit(hermesHome: string): ConfigSource {
  const source = readConfigSource(hermesHome);
  if (source.doc.errors.length > 0) {
    throw configError(source.path, checkConfig(source, {}, hermesHome).problems);
  }
  return source;
}

/** Writes, then re-checks what only a reader of the file can check (approvals); rolls back. */
function commit(
  source: ConfigSource,
  before: ReadonlySet<string>,
  text: string,
  env: Env,
  hermesHome: string,
): void {
  writeFileAtomic(source.path, text);
  const after = checkConfig(readConfigSource(hermesHome), env, hermesHome).problems.map(
    formatProblem,
  );
  const added = after.filter((line) => !before.has(line));
  if (added.length === 0) return;
  if (source.exists) writeFileAtomic(source.path, source.text);
  else if (existsSync(source.path)) rmSync(source.path);
  throw refused(`Not changed: the new value is invalid:\n  - ${added.join('\n  - ')}`);
}

/**
 * The first key path that would hold a secret if `value` were set at `path`: `path` itself or
 * one of its parents, or a key inside a section given as the value (`{key: …}`).
 */
function secretPathIn(path: readonly KeySegment[], value: unknown): KeySegment[] | undefined {
  for (let end = 1; end <= path.length; end += 1) {
    const prefix = path.slice(0, end);
    if (typeof prefix.at(-1) === 'string' && isSecretConfigPath(prefix)) return prefix;
  }
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = secretPathIn([...path, Array.isArray(value) ? Number(key) : key], item);
    if (found) return found;
  }
  return undefined;
}

/** The `.env` variable to suggest instead of a secret in config.yaml. */
function envExample(path: readonly KeySegment[]): string {
  return path[0] === 'platforms' && path[1] === 'api_server' ? 'API_SERVER_KEY' : 'OPENAI_API_KEY';
}

/**
 * Sets `path` to `value` in config.yaml (creating the file and parent sections as needed).
 * @throws HermesError `config.edit_refused` for a secret key, a path through a non-mapping, or a
 * value the schema rejects (the message names the key, line and expected type); `config.invalid`
 * when the file is not valid YAML.
 */
export function setConfigValue(
  hermesHome: string,
  path: readonly KeySegment[],
  value: unknown,
  env: Env,
): void {
  const key = formatKeyPath(path);
  const secret = secretPathIn(path, value);
  if (secret) {
    throw refused(
      `${formatKeyPath(secret)} would put a secret into config.yaml. Keep keys in .env instead, for example: hermes config set ${envExample(secret)} <key>`,
    );
  }
  const source = openForEdit(hermesHome);
  const before = problemLines(source, env, hermesHome);
  const doc = source.doc;
  if (doc.contents === null) doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  const existing: unknown = doc.getIn(path, true);
  try {
    // Changing a scalar in place keeps its comment; anything else is a new node.
    if (isScalar(existing) && (value === null || typeof value !== 'object')) existing.value = value;
    else doc.setIn(path, doc.createNode(value));
  } catch {
    throw refused(`Cannot set ${key}: a part of that path holds a value, not a section.`);
  }
  const text = doc.toString();
  const problems = newProblems(before, text, source.path, env, hermesHome);
  if (problems.length > 0) {
    throw refused(`Not changed: the new value is invalid:\n  - ${problems.join('\n  - ')}`);
  }
  commit(source, before, text, env, hermesHome);
}

/** Removes `path` from config.yaml; resolves to whether it was there. */
export function unsetConfigValue(
  hermesHome: string,
  path: readonly KeySegment[],
  env: Env,
): boolean {
  const source = openForEdit(hermesHome);
  if (!source.exists || !source.doc.hasIn(path)) return false;
  const before = problemLines(source, env, hermesHome);
  source.doc.deleteIn(path);
  commit(source, before, source.doc.toString(), env, hermesHome);
  return true;
}

/** The value at `path` in config.yaml as plain data, or undefined when it is not set. */
export function getConfigValue(hermesHome: string, path: readonly KeySegment[]): unknown {
  const source = openForEdit(hermesHome);
  const node: unknown = source.doc.getIn(path, true);
  if (node === undefined) return undefined;
  return isCollection(node) || isScalar(node) ? node.toJSON() : node;
}
