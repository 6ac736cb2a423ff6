/**
 * Walks a command line and judges every simple command on its own, as soon as the parser has
 * read it: top-level commands, commands inside subshells and substitutions, `find -exec`
 * payloads, and the code carried by `sh -c`, `eval`, `su -c`, `env -S` and here-documents fed
 * to a shell. A wrapper never lends its trust to its payload because rules only ever see the
 * payload.
 */
import { type Feed, unionFeeds, walkedSubs } from './feeds/feed.js';
import { type LinkedInput, linkedInput } from './feeds/group-links.js';
import { fileContent, inputsOf } from './feeds/stdout.js';
import { recordWrites } from './feeds/writes.js';
import { WrittenFiles } from './feeds/written-files.js';
import { xargsCommands, xargsInputFile } from './feeds/xargs.js';
import { COMMAND_LIMITS } from './limits.js';
import { carriedCode } from './rules/carriers.js';
import { chmodThenRun } from './rules/chmod-run.js';
import { EXEC_RULES } from './rules/dangerous-exec.js';
import { FS_RULES, redirectWrites } from './rules/dangerous-fs.js';
import { git } from './rules/dangerous-git.js';
import { SYSTEM_RULES } from './rules/dangerous-system.js';
import { DECODER, FETCHER } from './rules/fact-bits.js';
import { fedCode, fedCodeFindings, NO_CODE } from './rules/fed-code.js';
import { hardlineForSite, hardlineForText } from './rules/hardline.js';
import { isInert } from './rules/inert.js';
import { canonicalPath, homeRelative, type PathContext } from './rules/paths.js';
import { recordScriptFacts, shareScriptFacts } from './rules/script-facts.js';
import { InvocationSite, type Pipeline } from './rules/site.js';
import { type Finding, payloadText, type Site } from './rules/types.js';
import {
  type CommandJudge,
  type ScriptState,
  ScriptWalk,
  type SubstitutionIO,
} from './script-walk.js';
import type {
  HereDoc,
  LinkNotice,
  Script,
  SimpleCommand,
  Substitution,
  Word,
} from './shell/ast.js';
import { streamShell } from './shell/parser.js';
import { type Invocation, unwrapCommand } from './shell/unwrap.js';

/** Carried code nested deeper than this (`sh -c 'sh -c "…"'`) is not analysed: a parser limit. */
export const MAX_CARRIER_DEPTH = 8;

/** Thrown by the walker to stop at the {@link COMMAND_LIMITS}; caught in `analyzeCommand`. */
const TOO_MANY = Symbol('too many commands');

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
  /**
   * The line runs more commands than the {@link COMMAND_LIMITS} allow; analysis stopped there,
   * so the floor was not checked past that point either.
   */
  readonly tooMany: boolean;
}

/** What {@link analyzeCommand} should look for. */
export interface AnalyzeOptions {
  /** Collect {@link Analysis.variants} for deny globs (default true). */
  readonly collectVariants?: boolean;
  /**
   * Look only for the floor — hardline hits and `sudo -S` fed from input — and skip the
   * dangerous patterns (findings stay empty). For a command already refused by a parser limit,
   * where only a floor hit could change the verdict.
   */
  readonly floorOnly?: boolean;
  /**
   * Run every rule on every command, without the inert-command shortcut (`rules/inert.ts`).
   * The verdicts are the same; the tests use this to prove it.
   */
  readonly exhaustive?: boolean;
}

/** Extra carried characters allowed beyond one input length, so small nested commands pass. */
const CARRIED_SLACK = 8192;

const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

class Walker implements CommandJudge {
  hardline: Finding | undefined;
  sudoStdin: Finding | undefined;
  readonly findings: Finding[] = [];
  readonly variants: string[] = [];
  /** The files this line writes, for a shell that runs one later in it. */
  readonly files = new WrittenFiles();
  tooDeep = false;
  tooMany = false;
  /** Commands seen so far, and those of them that reached the rules. */
  private commands = 0;
  private judged = 0;
  private budget = Number.POSITIVE_INFINITY;
  private readonly spareLines: Pipeline[] = [];
  /** The carried walk's already-walked substitutions, while one of its commands is prepared. */
  private known: ReadonlyMap<string, Script> | undefined;

  constructor(
    readonly paths: PathContext,
    private readonly collectVariants: boolean,
    private readonly floorOnly: boolean,
    private readonly exhaustive: boolean,
  ) {}

  walkText(
    text: string,
    depth: number,
    known?: ReadonlyMap<string, Script>,
    inherited?: LinkedInput,
  ): void {
    // Carried code is parsed again; a budget of one extra input length (plus slack for small
    // commands) keeps `eval eval eval …` chains linear. Past it the line is a parser limit.
    this.budget -= text.length;
    if (depth > MAX_CARRIER_DEPTH || (depth > 0 && this.budget < 0)) {
      this.tooDeep = true;
      return;
    }
    // Nothing to parse and nothing to match (`eval` with no arguments).
    if (text === '') return;
    const walk = new ScriptWalk(this, depth);
    walk.known = known;
    walk.inherited = inherited;
    if (streamShell(text, walk)) this.tooDeep = true;
    this.hardline ??= hardlineForText(text, walk.hasCarrier);
  }

  /**
   * Judges every command of a collected `script` (a substitution's) and records its facts;
   * `inherited` is what it reads.
   */
  walkScript(script: Script, depth: number, inherited?: LinkedInput): void {
    // Substitution scripts are many and short: their pipeline objects are recycled.
    const walk = new ScriptWalk(this, depth, this.spareLines.pop(), true);
    walk.inherited = inherited;
    const links = script.links ?? [];
    let next = 0;
    script.commands.forEach((command, i) => {
      for (; next < links.length && (links[next] as LinkNotice).at <= i; next += 1) {
        const notice = links[next] as LinkNotice;
        walk.link(notice.link, notice.pipeline, notice.to);
      }
      walk.command(command);
      if (command.endsPipeline) walk.endPipeline(command.pipeline);
    });
    recordScriptFacts(script, walk.count, walk.bits, walk.subs);
    const line = walk.release();
    if (line !== undefined) this.spareLines.push(line);
  }

  private stop(): never {
    this.tooMany = true;
    throw TOO_MANY;
  }

  setBudget(chars: number): void {
    this.budget = chars;
  }

  /**
   * Runs every rule on one site. Returns whether it carries shell code. Once the line is known
   * to nest too deeply it will be refused as a parser limit, where only the floor can change
   * the verdict, so the dangerous patterns are skipped from then on.
   */
  judge(site: Site, depth: number): boolean {
    const { inv } = site;
    if (this.collectVariants) {
      this.variants.push(payloadText(inv), inv.command.words.map((w) => w.value).join(' '));
    }
    this.commands += 1;
    if (this.commands > COMMAND_LIMITS.commands) this.stop();
    if (!this.exhaustive && isInert(inv)) {
      // An inert name may still be a file this line wrote (`./x.sh`).
      if (!this.files.empty) this.judgeFedCode(site, depth);
      return false;
    }
    this.judged += 1;
    if (this.judged > COMMAND_LIMITS.judged) this.stop();
    this.hardline ??= hardlineForSite(site);
    this.sudoStdin ??= sudoFedFromInput(site);
    if (!this.floorOnly && !this.tooDeep) this.dangerous(site);
    if (inv.name === 'find') this.judgeFindExec(site, depth);
    if (inv.wrappers.length > 0 && inv.wrappers.some((w) => w.name === 'xargs')) {
      this.judgeXargs(site, depth);
    }
    const carried = carriedCode(inv);
    if (carried !== undefined) {
      this.walkText(carried, depth + 1, walkedSubs(inv.argWords), this.carrierInput(site));
    }
    this.judgeFedCode(site, depth);
    return carried !== undefined;
  }

  /** What code carried by `site` reads: what the carrier reads (`echo … | bash -c 'sh'`). */
  private carrierInput(site: Site): LinkedInput | undefined {
    if (site.index === 0 && site.inv.command.redirects.length === 0) return undefined;
    const inputs = inputsOf(site.inv, site.stdin, this.files, site);
    let facts = site.upstreamHas('fetcher') ? FETCHER : 0;
    if (site.upstreamHas('decoder')) facts |= DECODER;
    return linkedInput(unionFeeds(inputs), facts);
  }

  /**
   * Judges the code `site` is fed as data — piped, here-document'ed, here-string'ed, or written
   * to a file earlier in the line — as the script it is.
   */
  private judgeFedCode(site: Site, depth: number): void {
    const fed = fedCode(site, this.files);
    if (fed === NO_CODE) return;
    for (const feed of fed.shell) {
      for (const text of feed.texts) this.walkText(text, depth + 1, feed.walked);
    }
    if (!this.floorOnly && !this.tooDeep) fedCodeFindings(site, fed, this.findings);
  }

  beforeJudge(
    command: SimpleCommand,
    depth: number,
    known: ReadonlyMap<string, Script> | undefined,
    io: SubstitutionIO,
  ): void {
    this.known = known;
    this.walkSubstitutions(command, depth, io);
    this.known = undefined;
  }

  afterJudge(site: InvocationSite, state: ScriptState, bits: number, out: Feed | undefined): void {
    recordWrites(site, bits, out, this.files);
    if (!this.floorOnly && !this.tooDeep) chmodThenRun(site, state, this.findings);
    if (site.inv.name === 'cd') state.cwd = this.nextCwd(site.inv, state.cwd);
  }

  private dangerous(site: Site): void {
    const { inv } = site;
    FS_RULES.get(inv.name)?.(site, this.findings);
    SYSTEM_RULES.get(inv.name)?.(site, this.findings);
    if (inv.name === 'git') git(site, this.findings);
    for (const rule of EXEC_RULES) rule(site, this.findings);
    redirectWrites(site, this.findings);
  }

  /** `find … -exec CMD … ;` runs CMD: judge it as a command of its own. */
  private judgeFindExec(site: Site, depth: number): void {
    const words = site.inv.argWords;
    for (let i = 0; i < words.length; i += 1) {
      if (!FIND_EXEC.has((words[i] as Word).value)) continue;
      let end = i + 1;
      while (end < words.length && !isFindTerminator((words[end] as Word).value)) end += 1;
      const command: SimpleCommand = {
        ...site.inv.command,
        words: words.slice(i + 1, end),
        assigns: [],
        redirects: [],
      };
      const inv = unwrapCommand(command);
      this.judge(new InvocationSite(inv, undefined, site.cwd, site.paths), depth);
      i = end;
    }
  }

  /** `echo 'rm -rf /' | xargs -0 sh -c`: judge each command xargs builds from known input. */
  private judgeXargs(site: Site, depth: number): void {
    const file = this.files.empty ? undefined : xargsInputFile(site.inv);
    const content = file === undefined ? undefined : fileContent(file, this.files, site);
    if (file === undefined && site.stdin === undefined && this.files.empty) return;
    const inputs = file === undefined ? inputsOf(site.inv, site.stdin, this.files, site) : [];
    if (content !== undefined) inputs.push(content);
    for (const input of inputs) {
      for (const command of xargsCommands(site.inv, input)) {
        const inv = unwrapCommand(command);
        this.judge(new InvocationSite(inv, undefined, site.cwd, site.paths), depth);
      }
    }
  }

  private walkSubstitutions(command: SimpleCommand, depth: number, io: SubstitutionIO): void {
    for (const word of command.words) this.walkSubs(word, depth, io);
    for (const word of command.assigns) this.walkSubs(word, depth, io);
    for (const redirect of command.redirects) {
      if (redirect.target !== undefined) this.walkSubs(redirect.target, depth, io);
      if (redirect.heredoc !== undefined) this.walkSubs(redirect.heredoc, depth, io);
    }
  }

  private walkSubs(word: Word | HereDoc, depth: number, io: SubstitutionIO): void {
    const subs = word.subs;
    for (let i = 0; i < subs.length; i += 1) {
      const sub = subs[i] as Substitution;
      const walked = this.known?.get(sub.script.source);
      // The same text, already judged as the carrier's own substitution: only its facts are
      // needed, and they are the same.
      if (walked !== undefined) shareScriptFacts(walked, sub.script);
      else this.walkScript(sub.script, depth, substitutionInput(word, sub, io));
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

/** What a substitution reads: `>(…)` what the command prints, `$(…)` what the command reads. */
function substitutionInput(
  word: Word | HereDoc,
  sub: Substitution,
  io: SubstitutionIO,
): LinkedInput | undefined {
  if (sub.kind === 'command') return io.input;
  return 'raw' in word && word.raw.startsWith('>(') ? io.output : undefined;
}

function isFindTerminator(value: string): boolean {
  return value === ';' || value === '+';
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
  options: boolean | AnalyzeOptions = true,
): Analysis {
  const opts = typeof options === 'boolean' ? { collectVariants: options } : options;
  const walker = new Walker(
    paths,
    opts.collectVariants ?? true,
    opts.floorOnly ?? false,
    opts.exhaustive ?? false,
  );
  walker.setBudget(2 * command.length + CARRIED_SLACK);
  try {
    walker.walkText(command, 0);
  } catch (error) {
    if (error !== TOO_MANY) throw error;
  }
  return {
    hardline: walker.hardline,
    sudoStdin: walker.sudoStdin,
    findings: walker.findings,
    variants: walker.variants,
    tooDeep: walker.tooDeep,
    tooMany: walker.tooMany,
  };
}
