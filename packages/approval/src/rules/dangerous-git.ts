/** Dangerous-pattern rules for git: history and work that cannot be recovered. */
import { type Finding, hit, type Site, splitArgs } from './types.js';

const GLOBAL_VALUED = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--config-env',
]);

/** The git subcommand and its arguments, past git's own global options. */
function subcommand(args: readonly string[]): { sub: string; rest: readonly string[] } {
  let i = 0;
  while (i < args.length) {
    const arg = args[i] as string;
    if (!arg.startsWith('-')) return { sub: arg, rest: args.slice(i + 1) };
    i += GLOBAL_VALUED.has(arg) ? 2 : 1;
  }
  return { sub: '', rest: [] };
}

/** git reset --hard, push --force, clean -f, branch -D. */
export function git(site: Site, out: Finding[]): void {
  const { sub, rest } = subcommand(site.inv.args);
  const { short, long, positionals } = splitArgs(rest);
  if (sub === 'reset' && long.has('--hard')) {
    hit(site, out, 'git_reset_hard', 'git reset --hard (discards uncommitted work)');
  } else if (sub === 'push') {
    const forced =
      short.has('f') ||
      [...long].some(
        (l) => l === '--force' || l.startsWith('--force-with-lease') || l === '--mirror',
      ) ||
      positionals.some((p) => p.startsWith('+'));
    if (forced) hit(site, out, 'git_force_push', 'git push --force (rewrites remote history)');
  } else if (sub === 'clean') {
    const dryRun = short.has('n') || long.has('--dry-run');
    if ((short.has('f') || long.has('--force')) && !dryRun) {
      hit(site, out, 'git_clean_force', 'git clean -f (deletes untracked files)');
    }
  } else if (sub === 'branch') {
    const forceDelete =
      short.has('D') ||
      ((short.has('d') || long.has('--delete')) && (short.has('f') || long.has('--force')));
    if (forceDelete)
      hit(site, out, 'git_branch_force_delete', 'git branch -D (deletes unmerged work)');
  }
}
