/**
 * `HERMES_HOME/.env`: where API keys and other secrets live. A small `KEY=VALUE` parser
 * (comments, blank lines, `export`, single and double quotes, inline comments) and an editor that
 * changes one variable while keeping every other line, writing the file with mode 0600.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { ENV_KEY } from './secrets.js';

/** A line of `.env` that could not be read. */
export interface EnvFileProblem {
  /** 1-based. */
  readonly line: number;
  readonly message: string;
}

/** What {@link parseEnvText} found. */
export interface ParsedEnvFile {
  /** Variables in file order; a later assignment of the same name wins. */
  readonly values: Readonly<Record<string, string>>;
  readonly problems: readonly EnvFileProblem[];
}

const ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  r: '\r',
  t: '\t',
  '"': '"',
  '\\': '\\',
};

/** The name and raw value part of an assignment line, or undefined for anything else. */
function splitAssignment(line: string): { name: string; raw: string } | undefined {
  const body = line.replace(/^\s*export\s+/, '');
  const eq = body.indexOf('=');
  if (eq <= 0) return undefined;
  return { name: body.slice(0, eq).trim(), raw: body.slice(eq + 1) };
}

/** Reads a value: quoted (`"…"` with escapes, `'…'` literal) or bare (an inline ` #` ends it). */
function readValue(raw: string): { value: string } | { error: string } {
  const text = raw.trim();
  const quote = text[0];
  if (quote === '"' || quote === "'") {
    let value = '';
    for (let i = 1; i < text.length; i += 1) {
      const char = text[i] as string;
      if (char === quote) {
        const after = text.slice(i + 1).trim();
        if (after !== '' && !after.startsWith('#'))
          return { error: 'text after the closing quote' };
        return { value };
      }
      if (quote === '"' && char === '\\' && i + 1 < text.length) {
        const next = text[i + 1] as string;
        value += ESCAPES[next] ?? `\\${next}`;
        i += 1;
      } else value += char;
    }
    return { error: `missing closing ${quote}` };
  }
  const comment = text.search(/\s#/);
  return { value: (comment === -1 ? text : text.slice(0, comment)).trim() };
}

/** Parses the text of a `.env` file. Never throws: bad lines are reported and skipped. */
export function parseEnvText(text: string): ParsedEnvFile {
  const values: Record<string, string> = {};
  const problems: EnvFileProblem[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '' || line.trim().startsWith('#')) return;
    const assignment = splitAssignment(line);
    if (!assignment || !ENV_KEY.test(assignment.name)) {
      problems.push({ line: index + 1, message: 'expected NAME=value' });
      return;
    }
    const read = readValue(assignment.raw);
    if ('error' in read) problems.push({ line: index + 1, message: read.error });
    else values[assignment.name] = read.value;
  });
  return { values, problems };
}

/** The path of `.env` in a data home. */
export function envFilePath(hermesHome: string): string {
  return join(hermesHome, '.env');
}

/** Reads `HERMES_HOME/.env`; an absent file is empty. */
export function readEnvFile(hermesHome: string): ParsedEnvFile & { readonly exists: boolean } {
  const path = envFilePath(hermesHome);
  if (!existsSync(path)) return { values: {}, problems: [], exists: false };
  return { ...parseEnvText(readFileSync(path, 'utf8')), exists: true };
}

/** A value as written to `.env`: bare when safe, double-quoted with escapes otherwise. */
export function formatEnvValue(value: string): string {
  if (/^[A-Za-z0-9_./:@,+-]*$/.test(value)) return value;
  const escaped = value
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r');
  return `"${escaped}"`;
}

/**
 * Sets (a string) or removes (`undefined`) variables in `HERMES_HOME/.env`, keeping comments and
 * every other line; a variable assigned twice keeps one line. The file is replaced atomically
 * with mode 0600. Returns the names whose line changed.
 */
export function updateEnvFile(
  hermesHome: string,
  updates: Readonly<Record<string, string | undefined>>,
): string[] {
  const path = envFilePath(hermesHome);
  const lines = existsSync(path) ? readFileSync(path, 'utf8').split(/\r?\n/) : [];
  if (lines.at(-1) === '') lines.pop();
  const done = new Set<string>();
  const changed = new Set<string>();
  const out: string[] = [];
  for (const line of lines) {
    const name = splitAssignment(line)?.name;
    if (name === undefined || !Object.hasOwn(updates, name)) {
      out.push(line);
      continue;
    }
    changed.add(name);
    const value = updates[name];
    if (value === undefined || done.has(name)) continue;
    out.push(`${name}=${formatEnvValue(value)}`);
    done.add(name);
  }
  for (const [name, value] of Object.entries(updates)) {
    if (value === undefined || done.has(name)) continue;
    out.push(`${name}=${formatEnvValue(value)}`);
    changed.add(name);
  }
  writeFileAtomic(path, out.length === 0 ? '' : `${out.join('\n')}\n`, 0o600);
  return [...changed];
}
