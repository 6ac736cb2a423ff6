/**
 * The shadow-git checkpoints of one working directory: one repository per directory under
 * `HERMES_HOME/checkpoints/<hash of the absolute path>`, whose commits are snapshots of the
 * directory (the user's `.gitignore` respected; `.git/` and `node_modules/` always left out).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, rmdir, unlink, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ShadowGit } from './shadow-git.js';

/** One checkpoint, as `/rollback` lists it. */
export interface Checkpoint {
  /** 1 = newest. */
  readonly number: number;
  readonly commit: string;
  readonly createdAt: Date;
  /** The tool that triggered it (`write_file`, `terminal`, …). */
  readonly trigger: string;
  /** The turn it was taken in. */
  readonly turnId: string;
  /** `git diff --stat` of the working directory against it (empty: nothing changed). */
  readonly changes: string;
}

/** What `rollback(n)` did. */
export interface RollbackResult {
  readonly checkpoint: Checkpoint;
  /** Paths (relative to the working directory) brought back to the checkpoint's content. */
  readonly restored: readonly string[];
  /** Paths created after the checkpoint and removed. */
  readonly removed: readonly string[];
}

const SEPARATOR = '\u001f';

/**
 * The agent's own data when the working directory is HERMES_HOME itself: never snapshotted or
 * restored (a rolled-back session database or memory file would undo the agent, not the work).
 */
const HOME_DATA = ['/checkpoints/', '/state.db*', '/logs/', '/memories/', '/sessions/', '/*.lock'];

/** The shadow repository of `cwd` under `HERMES_HOME/checkpoints`. */
export class CheckpointStore {
  readonly #git: ShadowGit;
  readonly #cwd: string;
  readonly #checkpointsDir: string;
  readonly #hermesHome: string;
  #ready = false;

  constructor(hermesHome: string, cwd: string) {
    this.#cwd = resolve(cwd);
    this.#hermesHome = resolve(hermesHome);
    this.#checkpointsDir = join(this.#hermesHome, 'checkpoints');
    const key = createHash('sha256').update(this.#cwd).digest('hex').slice(0, 16);
    this.#git = new ShadowGit(join(this.#checkpointsDir, key), this.#cwd);
  }

  /** The working directory (absolute). */
  get workTree(): string {
    return this.#cwd;
  }

  /**
   * Directories inside the working directory that are never snapshotted: HERMES_HOME when the
   * working directory holds it, its checkpoints when the working directory is HERMES_HOME.
   */
  get skipped(): ReadonlySet<string> {
    if (this.#inside(this.#hermesHome)) return new Set([this.#hermesHome]);
    return new Set(this.#inside(this.#checkpointsDir) ? [this.#checkpointsDir] : []);
  }

  /** `info/exclude` lines for the agent's own data inside the working directory. */
  #ownDataPatterns(): string[] {
    if (this.#inside(this.#hermesHome)) {
      return [`/${relative(this.#cwd, this.#hermesHome).split(sep).join('/')}/`];
    }
    return this.#cwd === this.#hermesHome ? HOME_DATA : [];
  }

  /** The shadow repository's directory. */
  get gitDir(): string {
    return this.#git.gitDir;
  }

  /** Snapshots the working directory; resolves the new commit. */
  async snapshot(trigger: string, turnId: string): Promise<string> {
    await this.#init();
    await this.#stageAll();
    const message = `Checkpoint before ${trigger}\n\nTrigger: ${trigger}\nTurn: ${turnId}\n`;
    await this.#git.ok(['commit', '--quiet', '--allow-empty', '--no-verify', '-m', message]);
    return (await this.#git.ok(['rev-parse', 'HEAD'])).trim();
  }

  /** The checkpoints, newest first, each with what changed since. */
  async list(): Promise<Checkpoint[]> {
    if (!existsSync(join(this.#git.gitDir, 'HEAD'))) return [];
    const head = await this.#git.run(['rev-parse', '--verify', '--quiet', 'HEAD']);
    if (head.code !== 0) return [];
    await this.#stageAll();
    const format = [
      '%H',
      '%ct',
      '%(trailers:key=Trigger,valueonly)',
      '%(trailers:key=Turn,valueonly)',
    ];
    const log = await this.#git.ok(['log', `--format=${format.join(SEPARATOR)}%x1e`]);
    const rows = log
      .split('\u001e')
      .map((row) => row.trim())
      .filter(Boolean);
    const out: Checkpoint[] = [];
    for (const [index, row] of rows.entries()) {
      const [commit = '', time = '0', trigger = '', turnId = ''] = row.split(SEPARATOR);
      const changes = await this.#git.ok(['diff', '--cached', '--stat', commit]);
      out.push({
        number: index + 1,
        commit,
        createdAt: new Date(Number(time) * 1000),
        trigger: trigger.trim(),
        turnId: turnId.trim(),
        changes: changes.trimEnd(),
      });
    }
    return out;
  }

  /**
   * Restores the files of checkpoint `number` (1 = newest): files it had that changed or went
   * away are written back, files created since (and not ignored) are removed. Nothing outside
   * the working directory and nothing under `.git` is touched.
   */
  async rollback(number: number): Promise<RollbackResult | undefined> {
    const checkpoint = (await this.list()).find((entry) => entry.number === number);
    if (!checkpoint) return undefined;
    // list() staged the working tree: the index now describes it exactly.
    const changed = await this.#names(['--diff-filter=MDT', checkpoint.commit]);
    const added = await this.#names(['--diff-filter=A', checkpoint.commit]);
    const restored = changed.filter((path) => this.#safe(path));
    if (restored.length > 0) {
      await this.#git.ok(
        ['checkout', checkpoint.commit, '--pathspec-from-file=-', '--pathspec-file-nul'],
        `${restored.join('\0')}\0`,
      );
    }
    const removed: string[] = [];
    for (const path of added) {
      if (this.#safe(path) && (await this.#removeFile(path))) removed.push(path);
    }
    await this.#stageAll();
    return { checkpoint, restored, removed };
  }

  async #names(args: readonly string[]): Promise<string[]> {
    const out = await this.#git.ok([
      'diff',
      '--cached',
      '--name-only',
      '-z',
      '--no-renames',
      ...args,
    ]);
    return out.split('\0').filter(Boolean);
  }

  /** Inside the working directory and not under a `.git` directory. */
  #safe(path: string): boolean {
    if (isAbsolute(path)) return false;
    const parts = path.split('/');
    if (parts.some((part) => part === '..' || part === '.git' || part === '')) return false;
    const absolute = resolve(this.#cwd, path);
    return this.#inside(absolute) && !absolute.startsWith(`${this.#checkpointsDir}${sep}`);
  }

  #inside(path: string): boolean {
    const rel = relative(this.#cwd, path);
    return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
  }

  /** Removes one file (a symlink itself, never its target), then its emptied directories. */
  async #removeFile(path: string): Promise<boolean> {
    const absolute = join(this.#cwd, path);
    try {
      const stat = await lstat(absolute);
      if (stat.isDirectory()) return false;
      await unlink(absolute);
    } catch {
      return false;
    }
    const parts = path.split('/').slice(0, -1);
    while (parts.length > 0) {
      const dir = join(this.#cwd, ...parts);
      try {
        if ((await readdir(dir)).length > 0) break;
        await rmdir(dir);
      } catch {
        break;
      }
      parts.pop();
    }
    return true;
  }

  async #stageAll(): Promise<void> {
    await this.#git.ok(['add', '--all', '--ignore-errors', '--', '.']);
  }

  async #init(): Promise<void> {
    if (this.#ready) return;
    if (!existsSync(join(this.#git.gitDir, 'HEAD'))) {
      await mkdir(this.#git.gitDir, { recursive: true });
      await this.#git.ok(['init', '--quiet']);
      await this.#git.ok(['config', 'core.bare', 'false']);
    }
    await mkdir(join(this.#git.gitDir, 'info'), { recursive: true });
    await writeFile(
      join(this.#git.gitDir, 'info', 'exclude'),
      ['.git/', 'node_modules/', ...this.#ownDataPatterns(), ''].join('\n'),
    );
    await writeFile(join(this.#git.gitDir, 'HERMES_WORKDIR'), `${this.#cwd}\n`);
    this.#ready = true;
  }
}
