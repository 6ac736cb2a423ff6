/**
 * The hardline floor: the twelve never-allow rules. Nothing — yolo, mode `off`, allowlists,
 * session approvals — lets a hardline hit run. Rules with a command name are judged on each
 * unwrapped payload (so a name must be at command position); the two position-less rules
 * (redirect to a raw block device, fork bomb) are judged on the redirections and on quote-masked
 * text.
 */
import { maskQuoted } from '../shell/mask.js';
import { canonicalPath, expandBraces } from './paths.js';
import { type Finding, payloadText, type Site, splitArgs } from './types.js';

const SYSTEM_DIRS = new Set([
  '/home',
  '/root',
  '/etc',
  '/usr',
  '/var',
  '/bin',
  '/sbin',
  '/boot',
  '/lib',
]);
const BLOCK_DEVICE = /^\/dev\/(?:sd|nvme|hd|mmcblk|vd|xvd)[a-z0-9]*/;
const MASKED_BLOCK_REDIRECT = />\s*\/dev\/(?:sd|nvme|hd|mmcblk|vd|xvd)[a-z0-9]*/;
const SHUTDOWN = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
const SYSTEMCTL_POWER = new Set(['poweroff', 'reboot', 'halt', 'kexec']);
const POSITIONAL_RULES = new Set(['init', 'telinit', 'systemctl', 'tee']);

/** Every command name a hardline rule looks at, besides the `mk…` names of {@link MKFS}. */
export const HARDLINE_COMMANDS: ReadonlySet<string> = new Set([
  'rm',
  'dd',
  'kill',
  ...SHUTDOWN,
  ...POSITIONAL_RULES,
]);
const MKFS = /^(?:mkfs(?:\.[a-z0-9]+)?|mke2fs|mkfs_[a-z0-9]+)$/;

/** The reasons, by rule; also the `patternKey` of a hardline verdict. */
export const HARDLINE_RULES = {
  root_delete: 'recursive delete of root filesystem',
  system_dir_delete: 'recursive delete of system directory',
  home_delete: 'recursive delete of home directory',
  mkfs: 'format filesystem (mkfs)',
  dd_block_device: 'dd to raw block device',
  block_device_redirect: 'redirect to raw block device',
  fork_bomb: 'fork bomb',
  kill_all: 'kill all processes',
  shutdown: 'system shutdown/reboot',
  init_runlevel: 'init 0/6',
  systemctl_power: 'systemctl poweroff/reboot',
  telinit_runlevel: 'telinit 0/6',
} as const;

type HardlineKey = keyof typeof HARDLINE_RULES;

function finding(key: HardlineKey, payload: string): Finding {
  return { key, reason: HARDLINE_RULES[key], payload };
}

/** Which protected location an `rm` target names, if any. */
function deleteTarget(target: string, cwd: string | undefined): HardlineKey | undefined {
  for (const spelling of expandBraces(target)) {
    const canon = canonicalPath(spelling, cwd);
    if (canon.relative) continue;
    if (canon.path === '/') return 'root_delete';
    if (SYSTEM_DIRS.has(canon.path)) return 'system_dir_delete';
    if (canon.path === '~') return 'home_delete';
  }
  return undefined;
}

function killAll(args: readonly string[]): boolean {
  const dashDash = args.indexOf('--');
  if (dashDash >= 0 && args.slice(dashDash + 1).includes('-1')) return true;
  const last = args.length - 1;
  return args.some((arg, i) => arg === '-1' && (i === last || i > 0));
}

function byName(site: Site): HardlineKey | undefined {
  const { name, args } = site.inv;
  if (name === 'rm') {
    for (const target of new Set(splitArgs(args).positionals)) {
      const key = deleteTarget(target, site.cwd);
      if (key) return key;
    }
    return undefined;
  }
  if (name.startsWith('mk') && MKFS.test(name)) return 'mkfs';
  if (
    name === 'dd' &&
    args.some((arg) => arg.startsWith('of=') && BLOCK_DEVICE.test(arg.slice(3)))
  ) {
    return 'dd_block_device';
  }
  if (name === 'kill' && killAll(args)) return 'kill_all';
  if (SHUTDOWN.has(name)) return 'shutdown';
  if (!POSITIONAL_RULES.has(name)) return undefined;
  const positionals = splitArgs(args).positionals;
  const first = positionals[0];
  if (name === 'init' && (first === '0' || first === '6')) return 'init_runlevel';
  if (name === 'telinit' && (first === '0' || first === '6')) return 'telinit_runlevel';
  if (name === 'systemctl' && first !== undefined && SYSTEMCTL_POWER.has(first)) {
    return 'systemctl_power';
  }
  if (name === 'tee' && positionals.some((p) => BLOCK_DEVICE.test(p)))
    return 'block_device_redirect';
  return undefined;
}

/** The hardline rule one invocation hits, if any. */
export function hardlineForSite(site: Site): Finding | undefined {
  const key = byName(site);
  if (key) return finding(key, payloadText(site.inv));
  for (const redirect of site.inv.command.redirects) {
    const target = redirect.target?.value ?? '';
    if (redirect.op.includes('>') && BLOCK_DEVICE.test(target)) {
      return finding('block_device_redirect', payloadText(site.inv));
    }
  }
  return undefined;
}

/** Skips blanks from `i`, then `token`; the index after it, or -1 when it is not there. */
function expectAt(text: string, i: number, token: string): number {
  let at = i;
  while (text.charCodeAt(at) === 32 || text.charCodeAt(at) === 9) at += 1;
  return text.startsWith(token, at) ? at + token.length : -1;
}

/**
 * Whether a fork-bomb body continues at `from`, just after `name(){`: `name | name &` with
 * optional blanks, matched by hand so the work stays linear.
 */
function forkBombAt(text: string, from: number, name: string): boolean {
  let i = expectAt(text, from, name);
  if (i >= 0) i = expectAt(text, i, '|');
  if (i >= 0) i = expectAt(text, i, name);
  return i >= 0 && expectAt(text, i, '&') >= 0;
}

/** `[\w:.-]`: a character of a function name. */
function isNameChar(code: number): boolean {
  return (
    (code >= 48 && code <= 58) || // 0-9 and ':'
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 ||
    code === 46 ||
    code === 45
  );
}

/** Finds `name(){ name|name& }` anywhere in `text`. */
function hasForkBomb(text: string): boolean {
  let at = text.indexOf('()');
  while (at >= 0) {
    // The body's `{` first: most `()` are not followed by one, and then no name is cut out.
    const body = expectAt(text, at + 2, '{');
    if (body >= 0) {
      let start = at;
      while (start > 0 && at - start < 64 && isNameChar(text.charCodeAt(start - 1))) start -= 1;
      const name = text.slice(start, at);
      if (name !== '' && forkBombAt(text, body, name)) return true;
    }
    at = text.indexOf('()', at + 2);
  }
  return false;
}

/**
 * The position-less hardline rules on a whole command line. Quoted text is data and is masked
 * first (keeping `$(…)` and backticks inside double quotes, which the shell runs) — unless a
 * shell carrier is present, whose quoted argument is code.
 */
export function hardlineForText(text: string, hasCarrier: boolean): Finding | undefined {
  // Masking only turns characters into blanks, so a text without `()` or `/dev/` cannot match
  // after masking either; most command lines skip the masking pass.
  if (!text.includes('()') && !text.includes('/dev/')) return undefined;
  const scanned = hasCarrier ? text : maskQuoted(text);
  if (hasForkBomb(scanned)) return finding('fork_bomb', text.slice(0, 200));
  if (MASKED_BLOCK_REDIRECT.test(scanned))
    return finding('block_device_redirect', text.slice(0, 200));
  return undefined;
}
