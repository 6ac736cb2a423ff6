/**
 * The per-script state of the analyser, fed one simple command at a time in source order (as the
 * parser completes them, or from a substitution's collected list): `NAME=value` assignments for
 * `$NAME` command names, the pipelines so far, the working directory after `cd`, and the files
 * made executable by `chmod +x`. Everything a rule sees is upstream or earlier, so judging while
 * parsing gives the same answers as judging a finished tree.
 */

import type { PathContext } from './rules/paths.js';
import { InvocationSite, Pipeline } from './rules/site.js';
import type { SimpleCommand, Word } from './shell/ast.js';
import type { CommandSink } from './shell/command-builder.js';
import { type Invocation, unwrapCommand } from './shell/unwrap.js';

/** What a {@link ScriptWalk} asks of the analyser for each command. */
export interface CommandJudge {
  readonly paths: PathContext;
  /** Runs the rules on one site; returns whether it carries shell code. */
  judge(site: InvocationSite, depth: number): boolean;
  /** Walks the substitutions of a command, then the per-script follow-ups. */
  afterJudge(site: InvocationSite, state: ScriptState, depth: number): void;
}

/** Script-level facts that later commands depend on. */
export interface ScriptState {
  cwd: string | undefined;
  /** Files made executable so far; created by the first `chmod`. */
  executable: Set<string> | undefined;
}

const VAR_REFERENCE = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/;
const BLANKS = /\s+/;

function plainWord(value: string): Word {
  return { raw: value, value, quoted: false, dynamic: false, subs: [] };
}

/** Streams one script's commands into the rules. */
export class ScriptWalk implements CommandSink, ScriptState {
  cwd: string | undefined;
  executable: Set<string> | undefined;
  /** Whether any command of this script (not of its substitutions) is a shell carrier. */
  hasCarrier = false;
  // Created on first use: a substitution's script rarely needs them, and there may be many.
  private vars: Map<string, string> | undefined;
  private pipelines: Map<number, Pipeline> | undefined;
  private currentId = -1;
  private current: Pipeline | undefined;
  private spare: Pipeline | undefined;

  constructor(
    private readonly judge: CommandJudge,
    private readonly depth: number,
  ) {}

  command(command: SimpleCommand): void {
    const inv = this.resolve(command);
    const line = this.pipelineOf(command.pipeline);
    const site = new InvocationSite(inv, line, this.cwd, this.judge.paths);
    if (this.judge.judge(site, this.depth)) this.hasCarrier = true;
    line.add(inv);
    this.judge.afterJudge(site, this, this.depth);
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
    const name = head ? VAR_REFERENCE.exec(head.raw)?.[1] : undefined;
    const value = name === undefined ? undefined : this.vars?.get(name);
    if (value === undefined) return inv;
    const replaced = value.split(BLANKS).filter(Boolean).map(plainWord);
    const words = [...command.words.slice(0, at), ...replaced, ...command.words.slice(at + 1)];
    return unwrapCommand({ ...command, words });
  }
}
