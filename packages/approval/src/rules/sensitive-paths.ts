/**
 * Which write targets are sensitive: the user's SSH keys, shell start-up files, credential files,
 * system configuration, the agent's own secrets and settings, and a project's `.env*` and
 * `config.yaml`. Used by the dangerous-pattern rules (redirect, tee, cp, mv, sed -i, …) and by
 * the file-write guard.
 */
import { baseName, canonicalPath, homeRelative, type PathContext } from './paths.js';

/** A sensitive target class: its pattern key and the reason shown to the person. */
export interface SensitiveTarget {
  readonly key: string;
  readonly reason: string;
}

const SHELL_RC = new Set([
  '~/.bashrc',
  '~/.bash_profile',
  '~/.bash_login',
  '~/.bash_logout',
  '~/.profile',
  '~/.zshrc',
  '~/.zshenv',
  '~/.zprofile',
  '~/.zlogin',
  '~/.kshrc',
  '~/.cshrc',
  '~/.tcshrc',
  '~/.config/fish/config.fish',
  '~/.inputrc',
]);

const CREDENTIAL_FILES = new Set([
  '~/.netrc',
  '~/.git-credentials',
  '~/.npmrc',
  '~/.pypirc',
  '~/.pgpass',
  '~/.my.cnf',
  '~/.docker/config.json',
  '~/.config/gh/hosts.yml',
  '~/.gitconfig',
]);

const CREDENTIAL_DIRS = [
  '~/.aws',
  '~/.kube',
  '~/.gnupg',
  '~/.gcloud',
  '~/.config/gcloud',
  '~/.azure',
];
const SYSTEM_DIRS = [
  '/etc',
  '/private/etc',
  '/private/var',
  '/boot',
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib64',
  '/sys',
  '/proc/sys',
  '/var/spool/cron',
  '/Library/LaunchDaemons',
];
const HERMES_SECRET_FILES = new Set(['.env', 'auth.json']);
const HERMES_SECRET_DIRS = ['pairing', 'mcp-tokens'];

const ENV_FILE = /^\.env(?:\.[^/]+)?$/;
const OTHER_SSH = /^\/(?:root|home\/[^/]+)\/\.ssh(?:\/|$)/;

function within(path: string, dir: string): boolean {
  // `path === dir || path.startsWith(dir + '/')`, without building `dir + '/'` per call.
  return path.startsWith(dir) && (path.length === dir.length || path.charCodeAt(dir.length) === 47);
}

const T = (key: string, reason: string): SensitiveTarget => ({ key, reason });

/** The last context's data-home spellings: one context is used for many paths. */
let lastContext: PathContext | undefined;
let lastHermesHomes: readonly string[] = [];

/** The agent's data home as a canonical path, and its default spelling `~/.hermes`. */
function hermesHomes(ctx: PathContext): readonly string[] {
  if (
    lastContext === undefined ||
    lastContext.home !== ctx.home ||
    lastContext.hermesHome !== ctx.hermesHome
  ) {
    lastContext = { home: ctx.home, hermesHome: ctx.hermesHome };
    lastHermesHomes = [canonicalPath(homeRelative(ctx.hermesHome, ctx)).path, '~/.hermes'];
  }
  return lastHermesHomes;
}

/** Targets inside the agent's own data home. */
function hermesTarget(path: string, ctx: PathContext): SensitiveTarget | undefined {
  for (const home of hermesHomes(ctx)) {
    if (!within(path, home)) continue;
    const rest = path.slice(home.length + 1);
    if (rest === 'config.yaml')
      return T('hermes_config_write', "write to the agent's own config.yaml (approval settings)");
    if (HERMES_SECRET_FILES.has(rest) || HERMES_SECRET_DIRS.some((dir) => within(rest, dir))) {
      return T('hermes_secrets_write', "write to the agent's own credentials");
    }
  }
  return undefined;
}

/** Targets in the user's home directory. */
function homeTarget(path: string): SensitiveTarget | undefined {
  if (!path.startsWith('~')) {
    // Every home-relative entry below starts with `~/`; only other users' keys are absolute.
    return (path.startsWith('/root/') || path.startsWith('/home/')) && OTHER_SSH.test(path)
      ? T('ssh_write', 'write to SSH configuration or keys')
      : undefined;
  }
  if (within(path, '~/.ssh')) return T('ssh_write', 'write to SSH configuration or keys');
  if (SHELL_RC.has(path)) return T('shell_rc_write', 'write to a shell start-up file');
  if (CREDENTIAL_FILES.has(path) || CREDENTIAL_DIRS.some((dir) => within(path, dir))) {
    return T('credential_write', 'write to a credential file');
  }
  return undefined;
}

/**
 * Classifies one write target spelling. Returns `undefined` for an ordinary file. `cwd`, when
 * known, resolves relative spellings.
 */
export function classifyWriteTarget(
  spelling: string,
  ctx: PathContext,
  cwd?: string,
): SensitiveTarget | undefined {
  if (spelling === '' || spelling.startsWith('/dev/')) return undefined;
  const canon = canonicalPath(homeRelative(spelling, ctx), cwd);
  const path = canon.allChildren ? `${canon.path}/*` : canon.path;
  const found = hermesTarget(path, ctx) ?? homeTarget(path);
  if (found) return found;
  if (!canon.relative && SYSTEM_DIRS.some((dir) => within(path, dir))) {
    return T('system_config_write', 'write to a system path');
  }
  const name = baseName(path);
  if (name.startsWith('.env') && ENV_FILE.test(name))
    return T('env_file_write', 'write to a .env file');
  if (name === 'config.yaml') return T('config_yaml_write', 'write to a config.yaml');
  return undefined;
}
