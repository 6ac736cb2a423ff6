/**
 * Walks a parsed command line and judges every simple command on its own: top-level commands,
 * commands inside subshells and substitutions, `find -exec` payloads, and the code carried by
 * `sh -c`, `eval`, `su -c`, `env -S` and here-documents fed to a shell. A wrapper never lends its
 * trust to its payload because rules only ever see the payload.
 */
import { carriedCode, shellReadsStdin } from './rules/carriers.js';
import { EXEC_RULES } from './rules/dangerous-exec.js';
import { FS_RULES, redirectWrites } from './rules/dangerous-fs.js';
import { git } from './rules/dangerous-git.js';
import { SYSTEM_RULES } from './rules/dangerous-system.js';
import { hardlineForSite, hardlineForText } from './rules/hardline.js';
import { canonicalPath, homeRelative, type PathContext } from './rules/paths.js';
import { type Finding, payloadText, type Site } from './rules/types.js';
import type { Script, SimpleCommand, Word } from './shell/ast.js';
import { parseShell } from './shell/parser.js';
import { type Invocation, unwrapCommand } from './shell/unwrap.js';

/** Carried code nested deeper than this (`sh -c 'sh -c "…"'`) is not analysed: a parser limit. */
export const MAX_CARRIER_DEPTH = 8;

/** Everything the rules found in one command line. */
export interface Analysis {
  /** The first hardline hit. */
  readonly hardline: Finding | undefined;
  /** The first `sudo -S` fed from a pipe or redirection. */
  readonly sudoStdin: Finding | undefined;
  /** Every dangerous-pattern hit, in order. */
  readonly findings: readonly Finding[];
  /** Normalized spellings of each simple command, for deny globs (when collected). */
  readonly variants: readonly string[];
  /** Nesting went past the parser's limits; the rest was not analysed. */
  readonly tooDeep: boolean;
}

/** Extra carried characters allowed beyond one input length, so small nested commands pass. */
const CARRIED_SLACK = 8192;

const VAR_REFERENCE = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/;
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

function plainWord(value: string): Word {
  return { raw: value, value, quoted: false, dynamic: false, subs: [] };
}

class Walker {
  hardline: Finding | undefined;
  sudoStdin: Finding | undefined;
  readonly findings: Finding[] = [];
  readonly variants: string[] = [];
  tooDeep = false;
  private budget = Number.POSITIVE_INFINITY;

  constructor(
    private readonly paths: PathContext,
    private readonly collectVariants: boolean,
  ) {}

  walkText(text: string, depth: number): void {
    // Carried code is parsed again; a budget of one extra input length (plus slack for small
    // commands) keeps `eval eval eval …` chains linear. Past it the line is a parser limit.
    this.budget -= text.length;
    if (depth > MAX_CARRIER_DEPTH || (depth > 0 && this.budget < 0)) {
      this.tooDeep = true;
      return;
    }
    const script = parseShell(text);
    if (script.tooDeep) this.tooDeep = true;
    const hasCarrier = this.walkScript(script, depth);
    this.hardline ??= hardlineForText(text, hasCarrier);
  }

  /** Judges every command of `script`; returns whether any of them is a shell carrier. */
  walkScript(script: Script, depth: number): boolean {
    const vars = new Map<string, string>();
    const invocations = script.commands.map((command) => this.resolve(command, vars));
    const pipelines = new Map<number, Invocation[]>();
    const positions: number[] = [];
    for (const inv of invocations) {
      const list = pipelines.get(inv.command.pipeline) ?? [];
      positions.push(list.length);
      list.push(inv);
      pipelines.set(inv.command.pipeline, list);
    }
    const facts = new Map<Invocation[], Map<(inv: Invocation) => boolean, Uint8Array>>();
    let cwd: string | undefined;
    let hasCarrier = false;
    const executable = new Set<string>();
    for (const [at, inv] of invocations.entries()) {
      const pipeline = pipelines.get(inv.command.pipeline) ?? [inv];
      const index = positions[at] ?? 0;
      const upstreamHas = upstreamOf(pipeline, index, facts);
      const site: Site = { inv, pipeline, index, upstreamHas, cwd, paths: this.paths };
      hasCarrier = this.judge(site, depth) || hasCarrier;
      this.walkSubstitutions(inv.command, depth);
      this.checkChmodThenRun(site, executable);
      if (inv.name === 'cd') cwd = this.nextCwd(inv, cwd);
    }
    return hasCarrier;
  }

  setBudget(chars: number): void {
    this.budget = chars;
  }

  /** Unwraps `command`, resolving a `$NAME` command name set by an earlier `NAME=value`. */
  private resolve(command: SimpleCommand, vars: Map<string, string>): Invocation {
    if (command.words.length === 0) {
      for (const assign of command.assigns) {
        const eq = assign.value.indexOf('=');
        if (eq > 0 && !assign.dynamic)
          vars.set(assign.value.slice(0, eq), assign.value.slice(eq + 1));
      }
    }
    const inv = unwrapCommand(command);
    if (!inv.dynamicName) return inv;
    const at = command.words.length - 1 - inv.args.length;
    const head = command.words[at];
    const name = head ? VAR_REFERENCE.exec(head.raw)?.[1] : undefined;
    const value = name === undefined ? undefined : vars.get(name);
    if (value === undefined) return inv;
    const replaced = value.split(/\s+/).filter(Boolean).map(plainWord);
    const words = [...command.words.slice(0, at), ...replaced, ...command.words.slice(at + 1)];
    return unwrapCommand({ ...command, words });
  }

  /** Runs every rule on one site. Returns whether it carries shell code. */
  private judge(site: Site, depth: number): boolean {
    const { inv } = site;
    if (this.collectVariants) {
      this.variants.push(payloadText(inv), inv.command.words.map((w) => w.value).join(' '));
    }
    this.hardline ??= hardlineForSite(site);
    this.sudoStdin ??= sudoFedFromInput(site);
    FS_RULES.get(inv.name)?.(site, this.findings);
    SYSTEM_RULES.get(inv.name)?.(site, this.findings);
    if (inv.name === 'git') git(site, this.findings);
    for (const rule of EXEC_RULES) rule(site, this.findings);
    redirectWrites(site, this.findings);
    if (inv.name === 'find') this.judgeFindExec(site, depth);
    const carried = carriedCode(inv);
    if (carried !== undefined) this.walkText(carried, depth + 1);
    if (shellReadsStdin(inv)) {
      for (const redirect of inv.command.redirects) {
        const body =
          redirect.heredoc?.body ?? (redirect.op === '<<<' ? redirect.target?.value : undefined);
        if (body !== undefined) this.walkText(body, depth + 1);
      }
    }
    return carried !== undefined;
  }

  /** `find … -exec CMD … ;` runs CMD: judge it as a command of its own. */
  private judgeFindExec(site: Site, depth: number): void {
    const words = site.inv.argWords;
    for (let i = 0; i < words.length; i += 1) {
      if (!FIND_EXEC.has((words[i] as Word).value)) continue;
      let end = i + 1;
      while (end < words.length && !/^[;+]$/.test((words[end] as Word).value)) end += 1;
      const command: SimpleCommand = {
        ...site.inv.command,
        words: words.slice(i + 1, end),
        assigns: [],
        redirects: [],
      };
      const inv = unwrapCommand(command);
      this.judge({ ...site, inv, pipeline: [inv], index: 0, upstreamHas: () => false }, depth);
      i = end;
    }
  }

  private walkSubstitutions(command: SimpleCommand, depth: number): void {
    for (const word of command.words)
      for (const sub of word.subs) this.walkScript(sub.script, depth);
    for (const word of command.assigns)
      for (const sub of word.subs) this.walkScript(sub.script, depth);
    for (const redirect of command.redirects) {
      for (const sub of redirect.target?.subs ?? []) this.walkScript(sub.script, depth);
      for (const sub of redirect.heredoc?.subs ?? []) this.walkScript(sub.script, depth);
    }
  }

  private checkChmodThenRun(site: Site, executable: Set<string>): void {
    const { inv } = site;
    if (inv.name !== 'chmod' && executable.size === 0) return;
    const strip = (path: string): string => path.replace(/^\.\//, '');
    if (inv.name === 'chmod') {
      const [mode, ...files] = inv.args.filter((a) => !/^-[cfvR]+$/.test(a));
      if (
        mode !== undefined &&
        (/[+=][rwst]*x/.test(mode) || /^[0-7]?[1357][0-7]{2}$/.test(mode))
      ) {
        for (const file of files) executable.add(strip(file));
      }
      return;
    }
    const first = inv.args.find((a) => !a.startsWith('-'));
    const runs =
      executable.has(strip(inv.path)) ||
      (carriedCode(inv) === undefined &&
        first !== undefined &&
        executable.has(strip(first)) &&
        shellLike(inv.name));
    if (runs && inv.path !== '') {
      this.findings.push({
        key: 'chmod_exec_run',
        reason: 'chmod +x followed by running the file',
        payload: payloadText(inv),
      });
    }
  }

  private nextCwd(inv: Invocation, cwd: string | undefined): string | undefined {
    const target = inv.args[0];
    if (target === undefined) return '~';
    if (inv.argWords[0]?.dynamic || target === '-') return undefined;
    const canon = canonicalPath(homeRelative(target, this.paths), cwd);
    return canon.relative ? undefined : canon.path;
  }
}

type Test = (inv: Invocation) => boolean;

/** `site.upstreamHas` for position `index` of `pipeline`: prefix facts computed once per test. */
function upstreamOf(
  pipeline: Invocation[],
  index: number,
  facts: Map<Invocation[], Map<Test, Uint8Array>>,
) {
  return (test: Test): boolean => {
    if (index === 0) return false;
    const byTest = facts.get(pipeline) ?? new Map<Test, Uint8Array>();
    facts.set(pipeline, byTest);
    let prefix = byTest.get(test);
    if (!prefix) {
      prefix = new Uint8Array(pipeline.length + 1);
      for (let i = 0; i < pipeline.length; i += 1) {
        prefix[i + 1] = prefix[i] === 1 || test(pipeline[i] as Invocation) ? 1 : 0;
      }
      byTest.set(test, prefix);
    }
    return prefix[index] === 1;
  };
}

function shellLike(name: string): boolean {
  return /^(?:sh|bash|zsh|dash|ksh|source|\.)$/.test(name);
}

/** `… | sudo -S cmd`, `sudo -S cmd <<< pw`: a password fed to sudo from input. */
function sudoFedFromInput(site: Site): Finding | undefined {
  const sudo = site.inv.wrappers.find((w) => w.name === 'sudo');
  if (!sudo?.options.some((o) => /^-[a-zA-Z]*S/.test(o) || o === '--stdin')) return undefined;
  const fed = site.index > 0 || site.inv.command.redirects.some((r) => r.op.startsWith('<'));
  if (!fed) return undefined;
  return {
    key: 'sudo_stdin',
    reason: 'password piped into sudo -S',
    payload: payloadText(site.inv),
  };
}

/** Parses and judges `command`. Never throws. */
export function analyzeCommand(
  command: string,
  paths: PathContext,
  collectVariants = true,
): Analysis {
  const walker = new Walker(paths, collectVariants);
  walker.setBudget(2 * command.length + CARRIED_SLACK);
  walker.walkText(command, 0);
  return {
    hardline: walker.hardline,
    sudoStdin: walker.sudoStdin,
    findings: walker.findings,
    variants: walker.variants,
    tooDeep: walker.tooDeep,
  };
}
