/**
 * Runs `git` against a shadow repository: `--git-dir` is ours (under `HERMES_HOME/checkpoints/`),
 * `--work-tree` is the user's working directory, and no `GIT_*` variable of the user's
 * environment leaks in — so the user's own `.git` is never read or written.
 */
import { spawn } from 'node:child_process';

/** What one git run produced. */
export interface GitResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Thrown when git is not on PATH. */
export class GitMissingError extends Error {
  constructor() {
    super('git was not found on PATH');
    this.name = 'GitMissingError';
  }
}

/** Settings that make a shadow commit independent of the user's git configuration. */
const FIXED_CONFIG = [
  'user.name=Hermes checkpoints',
  'user.email=checkpoints@hermes.invalid',
  'commit.gpgsign=false',
  'core.autocrlf=false',
  'core.quotepath=false',
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'gc.auto=0',
];

/** The environment for git: the caller's without `GIT_*`, plus literal pathspecs. */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('GIT_')) env[key] = value;
  }
  // No system config; paths from our own lists are never pathspec magic.
  env.GIT_CONFIG_NOSYSTEM = '1';
  env.GIT_LITERAL_PATHSPECS = '1';
  env.GIT_TERMINAL_PROMPT = '0';
  return env;
}

/** One shadow repository bound to one working directory. */
export class ShadowGit {
  constructor(
    readonly gitDir: string,
    readonly workTree: string,
  ) {}

  /** Runs `git <args>`; resolves even on a non-zero exit. Rejects with {@link GitMissingError}. */
  run(args: readonly string[], input?: string): Promise<GitResult> {
    const full = [
      ...FIXED_CONFIG.flatMap((entry) => ['-c', entry]),
      `--git-dir=${this.gitDir}`,
      `--work-tree=${this.workTree}`,
      ...args,
    ];
    return runGit(full, this.workTree, input);
  }

  /** Like {@link run}, but rejects when git exits non-zero (with its stderr, never the env). */
  async ok(args: readonly string[], input?: string): Promise<string> {
    const result = await this.run(args, input);
    if (result.code !== 0) {
      throw new Error(`git ${args[0]} failed: ${result.stderr.trim().slice(0, 300)}`);
    }
    return result.stdout;
  }
}

function runGit(args: readonly string[], cwd: string, input?: string): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: gitEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new GitMissingError() : error),
    );
    child.on('close', (code) =>
      resolve({
        code: code ?? 1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
    child.stdin.on('error', () => {}); // git may exit before reading its input
    child.stdin.end(input ?? '');
  });
}
