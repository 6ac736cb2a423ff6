/**
 * The file-write guard for `write_file` / `patch`: some files are never written by the agent —
 * SSH, cloud and cluster credentials, sudoers, `~/.netrc`, the agent's own credentials, `.env`
 * files, pairing and MCP-token files — and, when a write-safe root is set, nothing outside it.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, resolve, sep } from 'node:path';
import type { Verdict } from './verdict.js';

/** Options of {@link checkFileWrite}. */
export interface FileWriteGuardOptions {
  /** The agent's data home (HERMES_HOME). */
  readonly hermesHome: string;
  /** When set, only paths inside this folder may be written. */
  readonly writeSafeRoot?: string;
  /** The user's home directory; defaults to the process's. */
  readonly home?: string;
  /** Base for relative paths; defaults to the process's working directory. */
  readonly cwd?: string;
}

const ENV_FILE = /^\.env(?:\.[^/]+)?$/;
const ENV_TEMPLATE = /^\.env\.(?:example|sample|template|dist)$/;

/** Resolves symlinks in the longest existing prefix of `path`, so a link cannot hide a target. */
function realish(path: string): string {
  let current = path;
  const rest: string[] = [];
  for (let i = 0; i < 64; i += 1) {
    try {
      return [realpathSync(current), ...rest.reverse()].join(sep);
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      rest.push(current.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      current = parent;
    }
  }
  return path;
}

function inside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

function protectedReason(path: string, home: string, hermesHome: string): string | undefined {
  const userDirs: Array<[string, string]> = [
    ['.ssh', 'SSH keys and configuration'],
    ['.aws', 'AWS credentials'],
    ['.kube', 'Kubernetes credentials'],
    ['.gnupg', 'GnuPG keys'],
  ];
  for (const [dir, what] of userDirs) if (inside(path, resolve(home, dir))) return what;
  if (path === resolve(home, '.netrc')) return 'the ~/.netrc credential file';
  if (path === '/etc/sudoers' || inside(path, '/etc/sudoers.d')) return 'sudoers';
  const agent = realish(resolve(hermesHome));
  if (path === resolve(agent, 'auth.json') || path === resolve(agent, '.env'))
    return "the agent's own credentials";
  if (inside(path, resolve(agent, 'pairing'))) return 'pairing files';
  if (
    inside(path, resolve(agent, 'mcp-tokens')) ||
    /mcp[-_]?tokens?/i.test(path.slice(path.lastIndexOf(sep) + 1))
  ) {
    return 'MCP token files';
  }
  const name = path.slice(path.lastIndexOf(sep) + 1);
  if (ENV_FILE.test(name) && !ENV_TEMPLATE.test(name)) return 'a .env file (secrets)';
  return undefined;
}

/** Decides whether the agent may write `path`: `allow`, or `block` with the reason. */
export function checkFileWrite(path: string, options: FileWriteGuardOptions): Verdict {
  const home = options.home ?? homedir();
  const expanded = path === '~' || path.startsWith('~/') ? home + path.slice(1) : path;
  const absolute = isAbsolute(expanded)
    ? expanded
    : resolve(options.cwd ?? process.cwd(), expanded);
  const target = realish(resolve(absolute));
  const reason =
    protectedReason(target, realish(home), options.hermesHome) ??
    protectedReason(resolve(absolute), home, options.hermesHome);
  if (reason) {
    return {
      decision: 'block',
      stage: 'write_guard',
      reason: `writing ${path} is not allowed: ${reason}`,
      recovery: 'Do not write this file; ask the user to change it themselves if needed.',
    };
  }
  if (options.writeSafeRoot !== undefined) {
    const root = realish(resolve(options.writeSafeRoot));
    if (!inside(target, root)) {
      return {
        decision: 'block',
        stage: 'write_guard',
        reason: `writing ${path} is not allowed: it is outside the write-safe root ${root}`,
        recovery: `Write only inside ${root}.`,
      };
    }
  }
  return { decision: 'allow', stage: 'write_guard', reason: 'the file is not protected' };
}
