/** The checks of `hermes doctor` that need no network: Node, the data home, files, database. */
import { accessSync, constants, existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isHermesError } from '@hermes/protocol';
import {
  checkConfig,
  envFilePath,
  formatProblem,
  mergeDotenv,
  readConfigSource,
  readEnvFile,
} from '@hermes/runtime';
import { defaultStatePath, openSessionStore } from '@hermes/state';
import type { CheckResult } from './check-result.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The oldest Node.js the CLI supports. */
export const MIN_NODE: readonly [number, number] = [20, 11];

/** Node.js at least {@link MIN_NODE}. */
export function checkNode(version = process.versions.node): CheckResult {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return {
    name: 'Node.js',
    status: ok ? 'ok' : 'fail',
    detail: `v${version} (needs ≥ ${MIN_NODE.join('.')})`,
    fix: 'install Node.js 20.11 or newer (https://nodejs.org, or nvm install 20)',
  };
}

/** The data home exists, is a folder, and can be written. */
export function checkHome(home: string): CheckResult {
  const name = 'HERMES_HOME';
  if (!existsSync(home)) {
    return {
      name,
      status: 'fail',
      detail: `${home} does not exist`,
      fix: `run \`hermes setup\` (it creates it), or mkdir -p ${home}`,
    };
  }
  if (!statSync(home).isDirectory()) {
    return {
      name,
      status: 'fail',
      detail: `${home} is not a folder`,
      fix: `move the file away, or point HERMES_HOME elsewhere`,
    };
  }
  const probe = join(home, `.doctor-${process.pid}.tmp`);
  try {
    accessSync(home, constants.W_OK);
    writeFileSync(probe, '');
    rmSync(probe);
  } catch {
    return {
      name,
      status: 'fail',
      detail: `${home} is not writable`,
      fix: `chmod u+rwx ${home} (or fix its owner)`,
    };
  }
  if ((statSync(home).mode & 0o002) !== 0) {
    return {
      name,
      status: 'warn',
      detail: `${home} is writable by everyone`,
      fix: `chmod o-w ${home}`,
    };
  }
  return { name, status: 'ok', detail: `${home} (writable)` };
}

/** config.yaml parses and validates; each problem with its key path and line. */
export function checkConfigFile(home: string, env: Env): CheckResult {
  const source = readConfigSource(home);
  const name = 'config.yaml';
  if (!source.exists) return { name, status: 'ok', detail: 'not created yet; defaults apply' };
  const result = checkConfig(source, env, home);
  if (result.problems.length > 0) {
    return {
      name,
      status: 'fail',
      detail: result.problems.map(formatProblem).join('\n'),
      fix: `edit ${source.path}, then run \`hermes config check\``,
    };
  }
  if (result.warnings.length > 0) {
    return { name, status: 'warn', detail: result.warnings.join('\n'), fix: `edit ${source.path}` };
  }
  return { name, status: 'ok', detail: `${source.path} is valid` };
}

/** `.env` parses and is private to its owner. */
export function checkEnvFile(home: string): CheckResult {
  const path = envFilePath(home);
  const name = '.env';
  const file = readEnvFile(home);
  if (!file.exists) return { name, status: 'ok', detail: 'none (keys come from the environment)' };
  if ((statSync(path).mode & 0o077) !== 0) {
    return {
      name,
      status: 'warn',
      detail: `${path} can be read by other users`,
      fix: `chmod 600 ${path}`,
    };
  }
  if (file.problems.length > 0) {
    const lines = file.problems.map((p) => `line ${p.line}: ${p.message}`).join('\n');
    return { name, status: 'warn', detail: lines, fix: `write each line as NAME=value in ${path}` };
  }
  return { name, status: 'ok', detail: `${Object.keys(file.values).length} variables, mode 0600` };
}

/** `PRAGMA integrity_check` on state.db, opened read-only. */
export async function checkDatabase(home: string): Promise<CheckResult> {
  const path = defaultStatePath(home);
  const name = 'state.db';
  if (!existsSync(path)) return { name, status: 'ok', detail: 'not created yet' };
  const fix = `move it aside (mv ${path} ${path}.broken); a fresh one is created on the next run, and the old file can still be recovered with the sqlite3 .recover command`;
  try {
    const store = openSessionStore({ hermesHome: home, readonly: true });
    try {
      const rows = store.db.pragma('integrity_check') as Array<{ integrity_check: string }>;
      const verdict = rows.map((row) => row.integrity_check);
      if (verdict.length === 1 && verdict[0] === 'ok') {
        return { name, status: 'ok', detail: `${path} passes the integrity check` };
      }
      return {
        name,
        status: 'fail',
        detail: `integrity check failed: ${verdict.slice(0, 3).join('; ')}`,
        fix,
      };
    } finally {
      await store.close();
    }
  } catch (error) {
    const message = isHermesError(error) || error instanceof Error ? error.message : String(error);
    return { name, status: 'fail', detail: message.split('. ')[0] ?? message, fix };
  }
}

/** The environment as the agent sees it: `.env` under the real environment. */
export function doctorEnv(home: string, env: Env): Env {
  return mergeDotenv(home, env).env;
}
