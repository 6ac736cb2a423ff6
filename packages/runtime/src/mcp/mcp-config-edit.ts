/**
 * `hermes mcp add|remove`: one `mcp_servers.<name>` entry written into or taken out of
 * config.yaml through the YAML document (comments and order kept), checked against the schema
 * before anything is written, and written atomically.
 *
 * Credentials stay in `.env`: an `env` variable or HTTP header that holds one must be written as
 * a `${VAR}` reference, which the loader fills in from `.env` (the plain `hermes config set`
 * refuses every secret-named key, references included, so it cannot write these entries).
 */
import { HermesError } from '@hermes/protocol';
import { writeFileAtomic } from '../config/atomic-write.js';
import { type ConfigSource, parseConfigText, readConfigSource } from '../config/config-document.js';
import { CONFIG_EDIT_REFUSED_CODE, unsetConfigValue } from '../config/config-edit.js';
import { isSecretConfigKey } from '../config/secrets.js';
import { checkConfig, configError, formatProblem } from '../config/validate-config.js';

type Env = Readonly<Record<string, string | undefined>>;

/** An `mcp_servers` entry as `hermes mcp add` builds it (snake_case, as in config.yaml). */
export type McpServerEntry = Readonly<Record<string, unknown>>;

/** Header names that carry credentials whatever they are called. */
const SECRET_HEADER = /^(?:authorization|proxy-authorization|cookie|x-api-key|api-key)$/i;
/** A value that is only `${VAR}` references (and text around them), never a literal secret. */
const REFERENCE = /\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}/;

function refused(message: string): HermesError {
  return new HermesError(CONFIG_EDIT_REFUSED_CODE, message);
}

/** The first `env` / `headers` entry of `entry` holding a literal credential, if any. */
function literalSecret(entry: McpServerEntry): { key: string; section: string } | undefined {
  for (const section of ['env', 'headers'] as const) {
    const values = entry[section];
    if (values === null || typeof values !== 'object') continue;
    for (const [key, value] of Object.entries(values)) {
      const secret = isSecretConfigKey(key) || (section === 'headers' && SECRET_HEADER.test(key));
      if (secret && typeof value === 'string' && !REFERENCE.test(value)) return { key, section };
    }
  }
  return undefined;
}

function envNameFor(key: string): string {
  const upper = key.toUpperCase().replace(/[^A-Z0-9_]+/g, '_');
  return /^[A-Z_]/.test(upper) ? upper : `MCP_${upper}`;
}

function problemsOf(source: ConfigSource, env: Env, hermesHome: string): Set<string> {
  return new Set(checkConfig(source, env, hermesHome).problems.map(formatProblem));
}

/**
 * Writes `mcp_servers.<name>` = `entry` into config.yaml (created when missing).
 * @returns whether an entry of that name was replaced.
 * @throws HermesError `config.edit_refused` for a literal credential in `env` / `headers`, an
 * existing entry without `replace`, or an entry the schema rejects (each problem with its key);
 * `config.invalid` when config.yaml is not valid YAML.
 */
export function setMcpServer(
  hermesHome: string,
  name: string,
  entry: McpServerEntry,
  options: { readonly env: Env; readonly replace?: boolean },
): boolean {
  const secret = literalSecret(entry);
  if (secret) {
    const variable = envNameFor(secret.key);
    throw refused(
      `${secret.section}.${secret.key} would put a secret into config.yaml. Keep it in .env (hermes config set ${variable} <value>) and refer to it: ${secret.section === 'env' ? '--env' : '--header'} ${secret.key}='\${${variable}}'`,
    );
  }
  const source = readConfigSource(hermesHome);
  if (source.doc.errors.length > 0) {
    throw configError(source.path, checkConfig(source, options.env, hermesHome).problems);
  }
  const path = ['mcp_servers', name];
  const existed = source.doc.hasIn(path);
  if (existed && !options.replace) {
    throw refused(
      `An MCP server named '${name}' is already configured; remove it first (hermes mcp remove ${name}) or pass --force to replace it.`,
    );
  }
  const before = problemsOf(source, options.env, hermesHome);
  const doc = source.doc;
  if (doc.contents === null) doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  const section: unknown = doc.get('mcp_servers');
  if (section === null || (section !== undefined && typeof section !== 'object')) {
    doc.set('mcp_servers', doc.createNode({}));
  }
  doc.setIn(path, doc.createNode(entry));
  const text = doc.toString();
  const after = problemsOf(parseConfigText(text, source.path), options.env, hermesHome);
  const added = [...after].filter((line) => !before.has(line));
  if (added.length > 0) {
    throw refused(`Not changed: the new entry is invalid:\n  - ${added.join('\n  - ')}`);
  }
  writeFileAtomic(source.path, text);
  return existed;
}

/** Removes `mcp_servers.<name>` from config.yaml; resolves to whether it was there. */
export function removeMcpServer(hermesHome: string, name: string, env: Env): boolean {
  return unsetConfigValue(hermesHome, ['mcp_servers', name], env);
}
