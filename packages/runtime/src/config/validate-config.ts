/**
 * Checking config.yaml: YAML syntax, `${VAR}` substitution, the zod schema (a bad value names
 * its key path, its line and what was expected), unknown keys (with a "did you mean": warnings
 * for the loader, errors for `hermes config check`),
 * the `approvals` section through `@hermes/approval`'s own loader, and the `API_SERVER_*`
 * environment variables that override `platforms.api_server`.
 */
import { loadApprovalSettings } from '@hermes/approval';
import {
  HermesError,
  isHermesError,
  VALIDATION_ERROR_CODE,
  type ValidationIssue,
} from '@hermes/protocol';
import type { z } from 'zod';
import { readApiServerEnv } from './api-server-env.js';
import {
  type ConfigSource,
  formatKeyPath,
  type KeySegment,
  lineOfPath,
  parseKeyPath,
} from './config-document.js';
import {
  FOREIGN_SECTIONS,
  type HermesConfigFile,
  HermesConfigFileSchema,
  KNOWN_KEYS_SCHEMA,
  STRICT_SECTIONS,
} from './config-schema.js';
import { resolveStorage } from './storage-section.js';
import { substituteEnv } from './substitute.js';
import { findUnknownKeys, suggestKeyPath } from './unknown-keys.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The code of the error a broken config.yaml raises. */
export const CONFIG_INVALID_CODE = 'config.invalid';

/** One error in config.yaml. */
export interface ConfigProblem {
  /** The key path (`agent.max_turns`), or `(root)`, or `(syntax)` for a YAML error. */
  readonly path: string;
  /** 1-based line in config.yaml, when known. */
  readonly line?: number;
  readonly message: string;
}

/** The outcome of {@link checkConfig}. */
export interface ConfigCheck {
  /** The validated file (with `${VAR}` substituted); undefined when there are problems. */
  readonly config: HermesConfigFile | undefined;
  readonly problems: readonly ConfigProblem[];
  /** Unknown keys, unset variables, approval notes: one line each, with the line number. */
  readonly warnings: readonly string[];
  /**
   * Keys no part of Hermes reads (also in `warnings`, worded for a loader that goes on without
   * them), each with a "did you mean" naming the whole key path when one is close.
   */
  readonly unknownKeys: readonly UnknownKeyProblem[];
}

/** A key no part of Hermes reads. */
export interface UnknownKeyProblem extends ConfigProblem {
  /** Its line in {@link ConfigCheck.warnings}, so a strict caller can leave it out there. */
  readonly warning: string;
}

/** `agent.max_turns (line 4): expected …` */
export function formatProblem(problem: ConfigProblem): string {
  const where = problem.line === undefined ? '' : ` (line ${problem.line})`;
  return problem.path === '(syntax)'
    ? `line ${problem.line ?? '?'}: ${problem.message}`
    : `${problem.path}${where}: ${problem.message}`;
}

function at(source: ConfigSource, path: readonly KeySegment[]): string {
  const line = lineOfPath(source, path);
  return line === undefined ? formatKeyPath(path) : `${formatKeyPath(path)} (line ${line})`;
}

function problemAt(
  source: ConfigSource,
  path: readonly KeySegment[],
  message: string,
): ConfigProblem {
  const line = lineOfPath(source, path);
  return { path: formatKeyPath(path), ...(line === undefined ? {} : { line }), message };
}

function syntaxProblems(source: ConfigSource): ConfigProblem[] {
  return source.doc.errors.map((error) => {
    const line = error.linePos?.[0]?.line;
    const first = error.message.split('\n')[0] ?? error.message;
    return {
      path: '(syntax)',
      ...(line === undefined ? {} : { line }),
      message: `not valid YAML: ${first}`,
    };
  });
}

/**
 * The problems of one zod issue. A strict section's unknown keys come as one issue on the
 * section; each key becomes its own problem, on its own line.
 */
function issueProblems(source: ConfigSource, issue: z.core.$ZodIssue): ConfigProblem[] {
  const path = issue.path as KeySegment[];
  if (issue.code !== 'unrecognized_keys') return [problemAt(source, path, issue.message)];
  return issue.keys.map((key) => {
    const meant = suggestKeyPath(KNOWN_KEYS_SCHEMA, [...path, key]);
    const hint = meant ? `; did you mean '${formatKeyPath(meant)}'?` : '';
    return problemAt(source, [...path, key], `unknown key${hint}`);
  });
}

/** Runs `@hermes/approval`'s loader, turning its errors into problems with lines. */
function approvalProblems(source: ConfigSource, hermesHome: string, env: Env, warnings: string[]) {
  if (!source.exists) return [];
  try {
    loadApprovalSettings(hermesHome, { env, onWarning: (w) => warnings.push(w) });
    return [];
  } catch (error) {
    if (!isHermesError(error)) throw error;
    if (error.code !== VALIDATION_ERROR_CODE)
      return [{ path: 'approvals', message: error.message }];
    const issues = (error.details.issues ?? []) as readonly ValidationIssue[];
    return issues.map((issue) => problemAt(source, parseKeyPath(issue.path), issue.message));
  }
}

/**
 * Every key of `raw` that no schema declares (sections accepted as written and strict sections,
 * whose own schema reports them, are not entered).
 */
function unknownKeyProblems(source: ConfigSource, raw: unknown): UnknownKeyProblem[] {
  const skip = new Set([...FOREIGN_SECTIONS, ...STRICT_SECTIONS]);
  return findUnknownKeys(KNOWN_KEYS_SCHEMA, raw, skip).map(({ path, suggestion }) => {
    const line = lineOfPath(source, path);
    const meant = suggestion === undefined ? undefined : [...path.slice(0, -1), suggestion];
    const hint = meant ? `; did you mean '${formatKeyPath(meant)}'?` : '';
    // The loader's warning keeps the short form it always had (`did you mean 'max_turns'?`).
    const warningHint = suggestion ? `; did you mean '${suggestion}'?` : '';
    return {
      path: formatKeyPath(path),
      ...(line === undefined ? {} : { line }),
      message: `unknown key${hint}`,
      warning: `${at(source, path)}: unknown key, ignored${warningHint}`,
    };
  });
}

/**
 * Checks config.yaml. Never throws for bad input: syntax errors, schema errors and approval
 * errors all come back as problems naming the key path and line. `hermesHome` is where the
 * approval loader reads the same file.
 */
export function checkConfig(source: ConfigSource, env: Env, hermesHome: string): ConfigCheck {
  const syntax = syntaxProblems(source);
  if (syntax.length > 0) {
    return { config: undefined, problems: syntax, warnings: [], unknownKeys: [] };
  }
  const raw: unknown = source.doc.toJS() ?? {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    const problem = problemAt(source, [], 'expected a mapping of sections (model:, agent:, …)');
    return { config: undefined, problems: [problem], warnings: [], unknownKeys: [] };
  }
  const warnings: string[] = [];
  const substituted = substituteEnv(raw, env, (variable, keyPath) => {
    warnings.push(
      `${at(source, parseKeyPath(keyPath))}: \${${variable}} is not set; left as written`,
    );
  });
  const unknownKeys = unknownKeyProblems(source, raw);
  warnings.push(...unknownKeys.map((unknown) => unknown.warning));
  const parsed = HermesConfigFileSchema.safeParse(substituted);
  const problems: ConfigProblem[] = parsed.success
    ? []
    : parsed.error.issues.flatMap((issue) => issueProblems(source, issue));
  problems.push(...approvalProblems(source, hermesHome, env, warnings));
  problems.push(...readApiServerEnv(env).problems);
  if (parsed.success) problems.push(...storageProblems(parsed.data.storage, env));
  return {
    config: problems.length === 0 && parsed.success ? parsed.data : undefined,
    problems,
    warnings,
    unknownKeys,
  };
}

/** A `storage:` that names PostgreSQL without a usable URL (`HERMES_DATABASE_URL` counts). */
function storageProblems(section: HermesConfigFile['storage'], env: Env): ConfigProblem[] {
  const storage = resolveStorage(section, env);
  return 'path' in storage ? [storage] : [];
}

/** The error a broken config.yaml raises: every problem, one per line, with the fix. */
export function configError(path: string, problems: readonly ConfigProblem[]): HermesError {
  const list = problems.map((problem) => `  - ${formatProblem(problem)}`).join('\n');
  return new HermesError(
    CONFIG_INVALID_CODE,
    `${path} is not valid:\n${list}\nFix the file (or run \`hermes config check\` after editing it).`,
    { details: { path, problems: [...problems] } },
  );
}
