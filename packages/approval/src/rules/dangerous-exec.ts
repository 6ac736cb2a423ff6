/**
 * Dangerous-pattern rules about running code: remote or decoded content piped or substituted
 * into a shell, inline scripts through `-c`/`-e` flags and here-documents, commands whose name is
 * computed at run time, and sudo with privilege flags or a root shell.
 */
import type { Script, Word } from '../shell/ast.js';
import type { Invocation } from '../shell/unwrap.js';
import {
  isDecoder,
  isFetcher,
  runsNamedCode,
  scriptInvocations,
  shellReadsStdin,
} from './carriers.js';
import {
  type Finding,
  hit,
  INTERPRETERS,
  interpreterName,
  SHELLS,
  type Site,
  splitArgs,
} from './types.js';

/** Inline-code flags by interpreter. */
const INLINE_FLAGS: Readonly<Record<string, readonly string[]>> = {
  python: ['-c'],
  python2: ['-c'],
  python3: ['-c'],
  pypy: ['-c'],
  pypy3: ['-c'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  node: ['-e', '-p', '--eval', '--print'],
  nodejs: ['-e', '-p', '--eval', '--print'],
  php: ['-r'],
  lua: ['-e'],
  bun: ['-e', '--eval', '-p', '--print'],
  rscript: ['-e'],
  osascript: ['-e'],
  pwsh: ['-c', '-command', '-encodedcommand', '-e', '-ec'],
  powershell: ['-c', '-command', '-encodedcommand', '-e', '-ec'],
};

function hasInlineFlag(inv: Invocation, name: string): boolean {
  if (name === 'deno') return inv.args[0] === 'eval';
  const flags = INLINE_FLAGS[name] ?? [];
  return inv.args.some((arg) => {
    const lower = arg.toLowerCase();
    if (
      flags.includes(lower) ||
      flags.some((f) => f.startsWith('--') && lower.startsWith(`${f}=`))
    ) {
      return true;
    }
    // Combined short flags such as `python3 -Bc` or `perl -ne`.
    return (
      /^-[a-zA-Z]+$/.test(arg) && flags.some((f) => f.length === 2 && arg.includes(f.charAt(1)))
    );
  });
}

function readsCodeFromStdin(inv: Invocation): boolean {
  if (shellReadsStdin(inv)) return true;
  const name = interpreterName(inv.name);
  if (!INTERPRETERS.has(name) || hasInlineFlag(inv, name)) return false;
  const { short, positionals } = splitArgs(inv.args);
  return !short.has('m') && (positionals.length === 0 || positionals[0] === '-');
}

function scriptHas(script: Script, test: (inv: Invocation) => boolean): boolean {
  return scriptInvocations(script).some(test);
}

function wordsHave(
  words: readonly Word[],
  kind: 'command' | 'process',
  test: (inv: Invocation) => boolean,
): boolean {
  return words.some((w) => w.subs.some((s) => s.kind === kind && scriptHas(s.script, test)));
}

/** `curl … | sh`, `base64 -d | bash`: fetched or decoded bytes piped into a shell. */
function pipedIntoShell(site: Site, out: Finding[]): void {
  if (site.index === 0 || !readsCodeFromStdin(site.inv)) return;
  if (site.upstreamHas(isFetcher))
    hit(site, out, 'remote_to_shell', 'remote content piped into a shell');
  else if (site.upstreamHas(isDecoder))
    hit(site, out, 'decoded_to_shell', 'decoded content piped into a shell');
}

/** `bash <(curl …)`, `source <(wget …)`, `eval "$(curl …)"`, `sh -c "$(curl …)"`. */
function substitutedIntoShell(site: Site, out: Finding[]): void {
  const inv = site.inv;
  const carrier =
    runsNamedCode(inv) || inv.name === 'eval' || INTERPRETERS.has(interpreterName(inv.name));
  if (!carrier) return;
  const redirectWords = inv.command.redirects.flatMap((r) => (r.target ? [r.target] : []));
  const words = [...inv.argWords, ...redirectWords];
  for (const kind of ['process', 'command'] as const) {
    if (wordsHave(words, kind, isFetcher)) {
      hit(site, out, 'remote_to_shell', 'remote content run by a shell');
      return;
    }
    if (wordsHave(words, kind, isDecoder)) {
      hit(site, out, 'decoded_to_shell', 'decoded content run by a shell');
      return;
    }
  }
}

/** Tools whose output is shell setup meant for `eval "$(tool …)"`. */
const ENV_GENERATORS = new Set([
  'ssh-agent',
  'pyenv',
  'rbenv',
  'nodenv',
  'direnv',
  'brew',
  'dircolors',
  'keychain',
  'opam',
  'fnm',
  'zoxide',
  'starship',
  'conda',
  'mise',
  'rtx',
  'goenv',
  'jenv',
  'luarocks',
  'gpg-agent',
]);

function onlyEnvGenerators(head: Word): boolean {
  if (head.subs.length === 0 || head.raw.replace(/\$\([^()]*\)/g, '').includes('$')) return false;
  return head.subs.every((s) => {
    const invs = scriptInvocations(s.script);
    return invs.length > 0 && invs.every((inv) => ENV_GENERATORS.has(inv.name));
  });
}

/** A command name that is computed when the command runs (`$(…) -rf x`, `$CMD …`). */
function dynamicName(site: Site, out: Finding[]): void {
  const head = site.inv.command.words[site.inv.command.words.length - 1 - site.inv.args.length];
  if (!site.inv.dynamicName || head === undefined || onlyEnvGenerators(head)) return;
  if (wordsHave([head], 'command', isFetcher)) {
    hit(site, out, 'remote_to_shell', 'remote content run as a command');
  } else if (wordsHave([head], 'command', isDecoder)) {
    hit(site, out, 'decoded_to_shell', 'decoded content run as a command');
  } else hit(site, out, 'dynamic_command', 'command name computed at run time');
}

function inlineScripts(site: Site, out: Finding[]): void {
  const inv = site.inv;
  const name = interpreterName(inv.name);
  if (!INTERPRETERS.has(name)) return;
  if (hasInlineFlag(inv, name)) {
    hit(site, out, 'script_inline_exec', `script execution via ${inv.name} -c/-e flag`);
    return;
  }
  const fed = inv.command.redirects.some((r) => r.op === '<<' || r.op === '<<<');
  if (fed && readsCodeFromStdin(inv)) {
    hit(site, out, 'heredoc_script_exec', `script execution via heredoc into ${inv.name}`);
  }
}

const SUDO_PRIVILEGE = /^-[a-zA-Z]*[siE]|^--(?:shell|login|preserve-env)/;

function privilege(site: Site, out: Finding[]): void {
  const inv = site.inv;
  const sudo = inv.wrappers.find(
    (w) => w.name === 'sudo' || w.name === 'doas' || w.name === 'pkexec',
  );
  if (inv.name === 'su') {
    hit(site, out, 'switch_user', 'switch user (su)');
    return;
  }
  if (!sudo) return;
  const rootShell =
    SHELLS.has(inv.name) && shellReadsStdin(inv) && inv.command.redirects.length === 0;
  if (sudo.options.some((o) => SUDO_PRIVILEGE.test(o)) || rootShell) {
    hit(site, out, 'sudo_privilege', 'sudo with privilege flags or a root shell');
  }
}

function evalDynamic(site: Site, out: Finding[]): void {
  // `eval "$(ssh-agent -s)"` is judged through its substitution; a bare variable is unknowable.
  if (site.inv.name === 'eval' && site.inv.argWords.some((w) => w.dynamic && w.subs.length === 0)) {
    hit(site, out, 'eval_dynamic', 'eval of text computed at run time');
  }
}

/** The rules that look at every invocation whatever its name. */
export const EXEC_RULES = [
  pipedIntoShell,
  substitutedIntoShell,
  dynamicName,
  inlineScripts,
  privilege,
  evalDynamic,
] as const;
