/**
 * The per-script state of the analyser, fed one simple command at a time in source order (as the
 * parser completes them, or from a substitution's collected list): `NAME=value` assignments for
 * `$NAME` command names, the pipelines so far, the working directory after `cd`, and the files
 * made executable by `chmod +x`. Everything a rule sees is upstream or earlier, so judging while
 * parsing gives the same answers as judging a finished tree.
 */

import { factBits } from './rules/fact-bits.js';
import type { PathContext } from './rules/paths.js';
import { InvocationSite, Pipeline } from './rules/site.js';
import type { Script, SimpleCommand, Word } from './shell/ast.js';
import type { CommandSink } from './shell/command-builder.js';
import { type Invocation, unwrapCommand } from './shell/unwrap.js';

/** What a {@link ScriptWalk} asks of the analyser for each command. */
export interface CommandJudge {
  readonly paths: PathContext;
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
  ): void;
  /** The per-script follow-ups of a judged command (`cd`, `chmod +x`). */
  afterJudge(site: InvocationSite, state: ScriptState): void;
}

/** Script-level facts that later commands depend on. */
export interface ScriptState {
  cwd: string | undefined;
  /** Files made executable so far; created by the first `chmod`. */
  executable: Set<string> | undefined;
}

const VAR_REFERENCE = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/;
const BLANKS = /\s+/;

/** `NAME` when `raw` is exactly `$NAME` or `${NAME}`. */
function variableReference(raw: string): string | undefined {
  // A cheap look at the first characters: a long `$(…)` head must not be scanned by the regex.
  const second = raw.charCodeAt(1);
  const isName = (second >= 65 && second <= 90) || (second >= 97 && second <= 122) || second === 95;
  if (raw.charCodeAt(0) !== 36 || !(isName || second === 123) || raw.length > 260) return undefined;
  return VAR_REFERENCE.exec(raw)?.[1];
}

/** `value` split at runs of blanks, without empty parts (most values are a single word). */
function splitBlanks(value: string): string[] {
  let blank = false;
  for (let i = 0; i < value.length && !blank; i += 1) blank = value.charCodeAt(i) <= 32;
  if (!blank) return value === '' ? [] : [value];
  return value.split(BLANKS).filter((part) => part !== '');
}

function plainWord(value: string): Word {
  return { raw: value, value, quoted: false, dynamic: false, subs: [] };
}

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
  /** Commands walked so far, and the union of their fact bits (see `rules/fact-bits.ts`). */
  count = 0;
  bits = 0;
  /** The scripts of the substitutions in the walked commands' words; allocated on first use. */
  subs: Script[] | undefined;
  // Created on first use: a substitution's script rarely needs them, and there may be many.
  private vars: Map<string, string> | undefined;
  private pipelines: Map<number, Pipeline> | undefined;
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
    const site = new InvocationSite(inv, line, this.cwd, this.judge.paths);
    // Substitutions run before the command that contains them, and walking them first records
    // their facts, which the command's own rules then ask about.
    this.judge.beforeJudge(command, this.depth, this.known);
    if (this.judge.judge(site, this.depth)) this.hasCarrier = true;
    const bits = factBits(inv);
    line.add(inv, bits);
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
    this.judge.afterJudge(site, this);
  }

  endPipeline(id: number): void {
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

  /** Unwraps `command`, resolving a `$NAME` command name set by an earlier `NAME=value`. */
  private resolve(command: SimpleCommand): Invocation {
    if (command.words.length === 0) {
      for (const assign of command.assigns) {
        const eq = assign.value.indexOf('=');
        if (eq > 0 && !assign.dynamic) {
          this.vars ??= new Map();
          this.vars.set(assign.value.slice(0, eq), assign.value.slice(eq + 1));
        }
      }
    }
    const inv = unwrapCommand(command);
    if (!inv.dynamicName) return inv;
    const at = command.words.length - 1 - inv.args.length;
    const head = command.words[at];
    const name = head ? variableReference(head.raw) : undefined;
    const value = name === undefined ? undefined : this.vars?.get(name);
    if (value === undefined) return inv;
    const words = command.words.slice(0, at);
    for (const part of splitBlanks(value)) words.push(plainWord(part));
    for (let i = at + 1; i < command.words.length; i += 1) words.push(command.words[i] as Word);
    return unwrapCommand({ ...command, words });
  }
}
