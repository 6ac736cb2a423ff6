/**
 * Dangerous-pattern rules about running code: remote or decoded content piped or substituted
 * into a shell, inline scripts through `-c`/`-e` flags and here-documents, commands whose name is
 * computed at run time, and sudo with privilege flags or a root shell.
 */
import type { Word } from '../shell/ast.js';
import type { Invocation } from '../shell/unwrap.js';
import { runsNamedCode, shellReadsStdin } from './carriers.js';
import { scriptFacts } from './script-facts.js';
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

const SIMPLE_SUBSTITUTION = /\$\([^()]*\)/g;

/** True when `inv` reads the code it runs from standard input (`sh`, `python3 -`, `node`). */
export function readsCodeFromStdin(inv: Invocation): boolean {
  if (shellReadsStdin(inv)) return true;
  const name = interpreterName(inv.name);
  if (!INTERPRETERS.has(name) || hasInlineFlag(inv, name)) return false;
  const { short, positionals } = splitArgs(inv.args);
  return !short.has('m') && (positionals.length === 0 || positionals[0] === '-');
}

const PROCESS_FETCH = 1;
const PROCESS_DECODE = 2;
const COMMAND_FETCH = 4;
const COMMAND_DECODE = 8;

/** Which kinds of substitution in `word` run a fetcher or a decoder, as the bits above. */
function substitutionBits(word: Word): number {
  let bits = 0;
  for (const sub of word.subs) {
    const facts = scriptFacts(sub.script);
    if (sub.kind === 'process') {
      if (facts.fetcher) bits |= PROCESS_FETCH;
      if (facts.decoder) bits |= PROCESS_DECODE;
    } else {
      if (facts.fetcher) bits |= COMMAND_FETCH;
      if (facts.decoder) bits |= COMMAND_DECODE;
    }
  }
  return bits;
}

/** `curl … | sh`, `base64 -d | bash`: fetched or decoded bytes piped into a shell. */
function pipedIntoShell(site: Site, out: Finding[]): void {
  if (site.index === 0 || !readsCodeFromStdin(site.inv)) return;
  if (site.upstreamHas('fetcher'))
    hit(site, out, 'remote_to_shell', 'remote content piped into a shell');
  else if (site.upstreamHas('decoder'))
    hit(site, out, 'decoded_to_shell', 'decoded content piped into a shell');
}

/** `bash <(curl …)`, `source <(wget …)`, `eval "$(curl …)"`, `sh -c "$(curl …)"`. */
function substitutedIntoShell(site: Site, out: Finding[]): void {
  const inv = site.inv;
  const carrier =
    runsNamedCode(inv) || inv.name === 'eval' || INTERPRETERS.has(interpreterName(inv.name));
  if (!carrier) return;
  let bits = 0;
  for (const word of inv.argWords) if (word.subs.length > 0) bits |= substitutionBits(word);
  for (const redirect of inv.command.redirects) {
    if (redirect.target !== undefined) bits |= substitutionBits(redirect.target);
  }
  // Process substitutions first, then command substitutions; a fetcher before a decoder.
  if (bits & PROCESS_FETCH) hit(site, out, 'remote_to_shell', 'remote content run by a shell');
  else if (bits & PROCESS_DECODE)
    hit(site, out, 'decoded_to_shell', 'decoded content run by a shell');
  else if (bits & COMMAND_FETCH) hit(site, out, 'remote_to_shell', 'remote content run by a shell');
  else if (bits & COMMAND_DECODE)
    hit(site, out, 'decoded_to_shell', 'decoded content run by a shell');
}

/** `$(ssh-agent -s)`: a head word made only of substitutions running env generators. */
function onlyEnvGenerators(head: Word): boolean {
  if (head.subs.length === 0) return false;
  // The cached facts first: the textual check below costs a pass over the whole word.
  for (const sub of head.subs) if (!scriptFacts(sub.script).onlyEnvGenerators) return false;
  return !head.raw.replace(SIMPLE_SUBSTITUTION, '').includes('$');
}

/** A command name that is computed when the command runs (`$(…) -rf x`, `$CMD …`). */
function dynamicName(site: Site, out: Finding[]): void {
  if (!site.inv.dynamicName) return;
  const head = site.inv.command.words[site.inv.command.words.length - 1 - site.inv.args.length];
  if (head === undefined || onlyEnvGenerators(head)) return;
  const bits = substitutionBits(head);
  if (bits & COMMAND_FETCH) {
    hit(site, out, 'remote_to_shell', 'remote content run as a command');
  } else if (bits & COMMAND_DECODE) {
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
