/**
 * The per-script state of the analyser, fed one simple command at a time in source order (as the
 * parser completes them, or from a substitution's collected list): `NAME=value` assignments for
 * `$NAME` command names, the pipelines so far, the working directory after `cd`, and the files
 * made executable by `chmod +x`. Everything a rule sees is upstream or earlier, so judging while
 * parsing gives the same answers as judging a finished tree.
 */

import { EMPTY_FEED, type Feed } from './feeds/feed.js';
import { GroupLinks, type LinkedInput, linkedInput } from './feeds/group-links.js';
import { staticOutput, stdoutLeaves, stdoutOf } from './feeds/stdout.js';
import { Variables } from './feeds/variables.js';
import type { WrittenFiles } from './feeds/written-files.js';
import { DECODER, FETCHER, factBits } from './rules/fact-bits.js';
import type { PathContext } from './rules/paths.js';
import { InvocationSite, Pipeline } from './rules/site.js';
import type { Redirect, Script, SimpleCommand, Word } from './shell/ast.js';
import type { CommandSink } from './shell/command-builder.js';
import { type Invocation, unwrapCommand } from './shell/unwrap.js';

/** What a {@link ScriptWalk} asks of the analyser for each command. */
export interface CommandJudge {
  readonly paths: PathContext;
  /** The files the line writes (shared by every script of the line). */
  readonly files: WrittenFiles;
  /** Runs the rules on one site; returns whether it carries shell code. */
  judge(site: InvocationSite, depth: number): boolean;
  /**
   * Walks the substitutions of a command, before its own rules run; those whose source is in
   * `known` were walked already (see {@link ScriptWalk.known}).
   */
  beforeJudge(
    command: SimpleCommand,
    depth: number,
    known: ReadonlyMap<string, Script> | undefined,
    io: SubstitutionIO,
  ): void;
  /**
   * The per-script follow-ups of a judged command (`cd`, `chmod +x`, the files it writes);
   * `bits` are its fact bits and `out` is what it prints, when the line knows.
   */
  afterJudge(site: InvocationSite, state: ScriptState, bits: number, out: Feed | undefined): void;
}

/**
 * What a command's substitutions read: a command substitution reads the command's own input
 * (`echo x | echo "$(sh)"`), an output process substitution reads what the command prints
 * (`tee >(sh)`, `echo … > >(sh)`).
 */
export interface SubstitutionIO {
  readonly input: LinkedInput | undefined;
  readonly output: LinkedInput | undefined;
}

/** Substitutions that read nothing known (most). */
const NO_IO: SubstitutionIO = { input: undefined, output: undefined };

/** Script-level facts that later commands depend on. */
export interface ScriptState {
  cwd: string | undefined;
  /** Files made executable so far; created by the first `chmod`. */
  executable: Set<string> | undefined;
}

/** Words longer than this are not expanded: no value the line sets makes one this long. */
const MAX_EXPANDED_WORD = 4096;

/** Streams one script's commands into the rules. */
export class ScriptWalk implements CommandSink, ScriptState {
  cwd: string | undefined;
  executable: Set<string> | undefined;
  /** Whether any command of this script (not of its substitutions) is a shell carrier. */
  hasCarrier = false;
  /**
   * For carried code (`sh -c "$(…)"`, `eval …`): the substitutions of the carrier's arguments,
   * by source. They were walked as the carrier's own, so parsing the text again must not walk
   * them a second time.
   */
  known: ReadonlyMap<string, Script> | undefined;
  /**
   * What the script reads when it is run by a command that has an input: carried code
   * (`echo … | bash -c 'sh'`) or a substitution. Commands first in their pipeline read it.
   */
  inherited: LinkedInput | undefined;
  /** Commands walked so far, and the union of their fact bits (see `rules/fact-bits.ts`). */
  count = 0;
  bits = 0;
  /** The scripts of the substitutions in the walked commands' words; allocated on first use. */
  subs: Script[] | undefined;
  // Created on first use: a substitution's script rarely needs them, and there may be many.
  private vars: Variables | undefined;
  private pipelines: Map<number, Pipeline> | undefined;
  private groups: GroupLinks | undefined;
  private currentId = -1;
  private current: Pipeline | undefined;
  private spare: Pipeline | undefined;

  /**
   * `spare` is a finished walk's pipeline object (see {@link release}), reused here.
   * `gatherSubs` keeps {@link subs} for a substitution's facts; a streamed command line leaves
   * it off, so its finished commands' trees are not kept alive.
   */
  constructor(
    private readonly judge: CommandJudge,
    private readonly depth: number,
    spare?: Pipeline,
    private readonly gatherSubs = false,
  ) {
    this.spare = spare;
  }

  /** Hands back a pipeline object for the next walk, once this one is done. */
  release(): Pipeline | undefined {
    const line = this.current ?? this.spare;
    line?.reset();
    this.current = undefined;
    this.spare = undefined;
    return line;
  }

  command(command: SimpleCommand): void {
    const inv = this.resolve(command);
    const line = this.pipelineOf(command.pipeline);
    const linked =
      command.stdinLink !== undefined
        ? this.groups?.get(command.stdinLink)
        : command.pipeIndex === 0
          ? this.inherited
          : undefined;
    const site = new InvocationSite(inv, line, this.cwd, this.judge.paths, linked);
    const bits = factBits(inv);
    const out = stdoutOf(inv, site.stdin, this.judge.files, site);
    // Substitutions run before the command that contains them, and walking them first records
    // their facts, which the command's own rules then ask about.
    const input = site.input;
    const output = linkedInput(out, bits & (FETCHER | DECODER));
    const io = input === undefined && output === undefined ? NO_IO : { input, output };
    this.judge.beforeJudge(command, this.depth, this.known, io);
    if (this.judge.judge(site, this.depth)) this.hasCarrier = true;
    line.add(inv, bits, out !== undefined && stdoutLeaves(inv) ? EMPTY_FEED : out);
    this.count += 1;
    this.bits |= bits;
    if (this.gatherSubs) {
      for (const word of command.words) {
        for (const sub of word.subs) {
          this.subs ??= [];
          this.subs.push(sub.script);
        }
      }
    }
    this.judge.afterJudge(site, this, bits, out);
    if (this.vars !== undefined || Variables.sets(inv.name, inv.args)) {
      this.vars ??= new Variables();
      this.vars.afterCommand(inv);
    }
  }

  /** A link the parser announced (see `CommandSink.link`), answered from what was walked. */
  link(link: number, pipeline: number, to?: number): void {
    this.groups ??= new GroupLinks();
    if (to !== undefined) this.groups.group(link, pipeline, to);
    else
      this.groups.pipe(
        link,
        pipeline === this.currentId ? this.current : this.pipelines?.get(pipeline),
      );
  }

  endPipeline(id: number): void {
    const ended = id === this.currentId ? this.current : this.pipelines?.get(id);
    // Most pipelines print nothing known and have no facts: nothing to remember.
    if (
      ended !== undefined &&
      (ended.feed !== undefined || ended.facts !== 0) &&
      GroupLinks.matters(ended)
    ) {
      this.groups ??= new GroupLinks();
      this.groups.end(id, ended);
    }
    if (id === this.currentId) {
      // Judging is synchronous, so no site of the ended pipeline is still being judged: the
      // object is reused for the next pipeline instead of allocating one per command.
      this.spare = this.current;
      this.spare?.reset();
      this.currentId = -1;
      this.current = undefined;
    } else this.pipelines?.delete(id);
  }

  /**
   * The pipeline with `id`. The one being read is kept aside; the map holds only pipelines
   * interrupted by a subshell (`a | (b; c) | d`), so most commands never touch it.
   */
  private pipelineOf(id: number): Pipeline {
    if (id === this.currentId && this.current !== undefined) return this.current;
    if (this.current !== undefined) {
      this.pipelines ??= new Map();
      this.pipelines.set(this.currentId, this.current);
    }
    let line = this.pipelines?.get(id);
    if (line !== undefined) this.pipelines?.delete(id);
    else if (this.spare !== undefined) {
      line = this.spare;
      this.spare = undefined;
    } else line = new Pipeline();
    this.currentId = id;
    this.current = line;
    return line;
  }

  /**
   * Unwraps `command`, expanding the words whose value the line spells out: variables set by an
   * earlier `NAME=value` (split on `IFS` when unquoted) and substitutions that only print known
   * text (`$(echo rm)`). A word that cannot be expanded soundly stays as written, so a command
   * name made of one is a dynamic command.
   */
  private resolve(command: SimpleCommand): Invocation {
    if (command.words.length === 0 && command.assigns.length > 0) {
      this.vars ??= new Variables();
      for (const assign of command.assigns) this.vars.assign(assign);
    }
    let words: Word[] | undefined;
    for (let i = 0; i < command.words.length; i += 1) {
      const word = command.words[i] as Word;
      const fields = word.dynamic ? this.expand(word, true) : undefined;
      if (fields !== undefined) words ??= command.words.slice(0, i) as Word[];
      if (words === undefined) continue;
      if (fields === undefined) words.push(word);
      else for (const field of fields) words.push(field);
    }
    const redirects =
      command.redirects.length === 0 ? command.redirects : this.resolveRedirects(command.redirects);
    if (words === undefined && redirects === command.redirects) return unwrapCommand(command);
    return unwrapCommand({ ...command, words: words ?? command.words, redirects });
  }

  /** Redirection targets and here-strings expanded as one word each (they are not split). */
  private resolveRedirects(redirects: readonly Redirect[]): readonly Redirect[] {
    let out: Redirect[] | undefined;
    for (let i = 0; i < redirects.length; i += 1) {
      const redirect = redirects[i] as Redirect;
      const target = redirect.target;
      const expanded = target?.dynamic ? this.expand(target, false)?.[0] : undefined;
      if (expanded !== undefined) out ??= redirects.slice(0, i);
      if (out !== undefined)
        out.push(expanded === undefined ? redirect : { ...redirect, target: expanded });
    }
    return out ?? redirects;
  }

  /** The fields of a dynamic word, or `undefined` to leave it as written. */
  private expand(word: Word, split: boolean): Word[] | undefined {
    // Only a word that is one substitution can be replaced by its output; others need values.
    const subs = word.subs.length;
    if (word.raw.length > MAX_EXPANDED_WORD || subs > 1) return undefined;
    if (subs === 0 && this.vars === undefined) return undefined;
    this.vars ??= new Variables();
    const scope = { cwd: this.cwd, paths: this.judge.paths };
    const output = (w: Word) =>
      staticOutput((w.subs[0] as { script: Script }).script, this.judge.files, scope);
    return this.vars.expand(word, output, split);
  }
}
