/**
 * Dangerous-pattern rules about files and disks: recursive delete, `xargs rm`, `find -delete`,
 * permissive `chmod`, recursive `chown` to root, disk copies and partitioning, and writes (by
 * redirect, `tee`, `cp`, `mv`, `install`, `ln`, `sed -i`, `dd of=`, `truncate`) to sensitive
 * paths.
 */
import { classifyWriteTarget } from './sensitive-paths.js';
import { type Finding, hit, type Site, type SiteRule, splitArgs } from './types.js';

const DISK_TOOLS = new Set([
  'fdisk',
  'sfdisk',
  'cfdisk',
  'gdisk',
  'sgdisk',
  'parted',
  'wipefs',
  'mkswap',
]);

function rm(site: Site, out: Finding[]): void {
  const { short, long, positionals } = splitArgs(site.inv.args);
  const recursive = short.has('r') || short.has('R') || long.has('--recursive');
  if (site.inv.wrappers.some((w) => w.name === 'xargs')) {
    hit(site, out, 'xargs_rm', 'xargs feeding rm');
  } else if (recursive) hit(site, out, 'recursive_delete', 'recursive delete');
  for (const target of new Set(positionals)) {
    const sensitive = classifyWriteTarget(target, site.paths, site.cwd);
    if (sensitive) {
      hit(site, out, 'sensitive_delete', `delete of a sensitive file (${sensitive.reason})`);
      return;
    }
  }
}

function find(site: Site, out: Finding[]): void {
  const args = site.inv.args;
  if (args.includes('-delete')) hit(site, out, 'find_delete', 'find -delete');
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg !== '-exec' && arg !== '-execdir' && arg !== '-ok' && arg !== '-okdir') continue;
    const payload = (args[i + 1] ?? '').replace(/^.*\//, '');
    if (payload === 'rm' || payload === 'shred' || payload === 'unlink') {
      hit(site, out, 'find_exec_rm', 'find -exec rm');
    }
  }
}

/** True for a numeric mode that gives others write permission (777, 0666, 1777, …). */
function worldWritableNumeric(mode: string): boolean {
  if (!/^[0-7]{3,4}$/.test(mode)) return false;
  const others = Number(mode.charAt(mode.length - 1));
  return (others & 2) === 2;
}

/** True for a symbolic mode granting others write (`o+w`, `a=rwx`, `ugo+w`). */
function worldWritableSymbolic(mode: string): boolean {
  return mode.split(',').some((clause) => {
    const parts = /^([ugoa]*)([+=])([rwxXst]*)$/.exec(clause);
    return parts !== null && /[oa]/.test(parts[1] ?? '') && (parts[3] ?? '').includes('w');
  });
}

function chmod(site: Site, out: Finding[]): void {
  const mode = site.inv.args.find((a) => !a.startsWith('--') && !/^-[cfvRHLP]+$/.test(a)) ?? '';
  if (worldWritableNumeric(mode) || worldWritableSymbolic(mode)) {
    hit(site, out, 'chmod_world_writable', 'world-writable permissions (chmod 777 / o+w / a+w)');
  }
}

function chown(site: Site, out: Finding[]): void {
  const { short, long, positionals } = splitArgs(site.inv.args);
  const recursive = short.has('R') || long.has('--recursive');
  const owner = positionals[0] ?? '';
  if (recursive && /^(?:root|0)(?::|\.|$)/.test(owner)) {
    hit(site, out, 'chown_recursive_root', 'recursive chown to root');
  }
}

function dd(site: Site, out: Finding[]): void {
  if (site.inv.args.some((a) => a.startsWith('if='))) hit(site, out, 'disk_copy', 'disk copy (dd)');
  for (const arg of site.inv.args) {
    if (arg.startsWith('of=')) sensitiveWrite(site, out, arg.slice(3));
  }
}

function disk(site: Site, out: Finding[]): void {
  hit(site, out, 'disk_partition', 'disk partitioning or wiping');
}

function shred(site: Site, out: Finding[]): void {
  hit(site, out, 'secure_delete', 'irrecoverable delete (shred)');
}

/** Adds a finding when `target` is a sensitive write target. */
export function sensitiveWrite(site: Site, out: Finding[], target: string): void {
  const sensitive = classifyWriteTarget(target, site.paths, site.cwd);
  if (sensitive) hit(site, out, sensitive.key, sensitive.reason);
}

function tee(site: Site, out: Finding[]): void {
  for (const target of splitArgs(site.inv.args).positionals) sensitiveWrite(site, out, target);
}

/** cp / mv / install / ln / rsync: the destination is `-t DIR` or the last positional. */
function copyLike(site: Site, out: Finding[]): void {
  const args = site.inv.args;
  const t = args.findIndex((a) => a === '-t' || a.startsWith('--target-directory'));
  if (t >= 0) {
    const value = args[t]?.includes('=') ? args[t]?.split('=')[1] : args[t + 1];
    if (value) sensitiveWrite(site, out, `${value}/x`);
    return;
  }
  const { positionals } = splitArgs(args);
  const dest = positionals[positionals.length - 1];
  if (positionals.length >= 2 && dest !== undefined) {
    sensitiveWrite(site, out, dest);
    const source = positionals[0] ?? '';
    if (dest.endsWith('/')) sensitiveWrite(site, out, dest + source.replace(/^.*\//, ''));
  }
}

function sed(site: Site, out: Finding[]): void {
  const args = site.inv.args;
  const inPlace = args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'));
  if (!inPlace) return;
  const explicitScript = args.some(
    (a) => a === '-e' || a === '-f' || /^--(?:expression|file)/.test(a),
  );
  const files = splitArgs(
    args.filter((_arg, i) => !(args[i - 1] === '-e' || args[i - 1] === '-f')),
  ).positionals;
  for (const file of explicitScript ? files : files.slice(1)) sensitiveWrite(site, out, file);
}

function truncate(site: Site, out: Finding[]): void {
  const args = site.inv.args;
  const files = args.filter(
    (a, i) => !a.startsWith('-') && args[i - 1] !== '-s' && args[i - 1] !== '-r',
  );
  for (const file of files) sensitiveWrite(site, out, file);
}

/** Writes through redirections (`>`, `>>`, `&>`, `>|`, `<>`); fd duplications are not writes. */
export function redirectWrites(site: Site, out: Finding[]): void {
  for (const redirect of site.inv.command.redirects) {
    if (!redirect.op.includes('>') || redirect.target === undefined) continue;
    const target = redirect.target.value;
    if (redirect.op === '>&' && /^(?:\d+|-)$/.test(target)) continue;
    sensitiveWrite(site, out, target);
  }
}

/** The file rules, by payload command name. */
export const FS_RULES: ReadonlyMap<string, SiteRule> = new Map<string, SiteRule>([
  ['rm', rm],
  ['unlink', rm],
  ['find', find],
  ['chmod', chmod],
  ['chown', chown],
  ['dd', dd],
  ['shred', shred],
  ['tee', tee],
  ['cp', copyLike],
  ['mv', copyLike],
  ['install', copyLike],
  ['ln', copyLike],
  ['rsync', copyLike],
  ['sed', sed],
  ['gsed', sed],
  ['truncate', truncate],
  ...[...DISK_TOOLS].map((name): [string, SiteRule] => [name, disk]),
]);
