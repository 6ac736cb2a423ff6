/**
 * Accumulates the words, assignments and redirections of one simple command and hands the
 * finished command to a {@link CommandSink}: a collecting array for substitutions, or the
 * analyser itself, which judges each command as soon as it is complete.
 */
import type { LinkNotice, Redirect, SimpleCommand, Word } from './ast.js';
import type { WordSink } from './word-reader.js';

/** Receives simple commands in source order as the parser completes them. */
export interface CommandSink {
  command(command: SimpleCommand): void;
  /** No command parsed after this call belongs to pipeline `id`. */
  endPipeline(id: number): void;
  /**
   * Announces link `link` (see {@link SimpleCommand.stdinLink}): what pipeline `pipeline`
   * carries at this point (a group is its next stage: `… | (sh)`), or, with `to`, the output of
   * a group whose commands ran in pipelines `pipeline` to `to` (`(echo a; echo b) | sh`).
   */
  link(link: number, pipeline: number, to?: number): void;
}

/**
 * Shared by every command without words, assignments or redirections (and every empty script),
 * so the many tiny commands of a long line allocate only what they hold.
 */
const NONE: readonly never[] = [];

/** Appends `item` to `list`, allocating the list on first use. */
function append<T>(list: T[] | undefined, item: T): T[] {
  if (list === undefined) return [item];
  list.push(item);
  return list;
}

/** A sink that keeps every command (a substitution's script, `parseShell`). */
export class CommandCollector implements CommandSink {
  private list: SimpleCommand[] | undefined;
  /** The links announced, placed among the commands; allocated on the first. */
  links: LinkNotice[] | undefined;

  /** The commands received, in order. */
  get commands(): readonly SimpleCommand[] {
    return this.list ?? NONE;
  }

  command(command: SimpleCommand): void {
    this.list = append(this.list, command);
  }

  endPipeline(): void {}

  link(link: number, pipeline: number, to?: number): void {
    this.links = append(this.links, { at: this.list?.length ?? 0, link, pipeline, to });
  }
}

/** Allocates the ids of announced links (the parser, which shares them with pipeline ids). */
export interface LinkIds {
  nextLink(): number;
}

/** What a first word that is not a command does (see {@link CommandBuilder.add}). */
const SKIP = 1;
const FOR_LIST = 2;
const CASE_SUBJECT = 3;
const FUNCTION_NAME = 4;

/** Words that open and close a compound command, whose output is that of all its commands. */
const OPENS: ReadonlySet<string> = new Set(['if', 'while', 'until', 'for', 'select', 'case', '{']);
const CLOSES: ReadonlySet<string> = new Set(['fi', 'done', 'esac', '}']);

/** Compound commands tracked at once; deeper ones share the innermost one's input. */
const MAX_GROUPS = 64;

/** A compound command being read: the pipeline it began in, and the link its commands read. */
interface OpenGroup {
  readonly open: number;
  readonly link: number | undefined;
}

const LEADS: ReadonlyMap<string, number> = new Map([
  ...['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until'].map(
    (word): [string, number] => [word, SKIP],
  ),
  ...['{', '}', '!', 'esac', '[[', ']]'].map((word): [string, number] => [word, SKIP]),
  ['for', FOR_LIST],
  ['select', FOR_LIST],
  ['case', CASE_SUBJECT],
  ['function', FUNCTION_NAME],
]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/;

/** Accumulates one simple command and hands it to the sink when it ends. */
export class CommandBuilder implements WordSink {
  private words: Word[] | undefined;
  private assigns: Word[] | undefined;
  private redirects: Redirect[] | undefined;
  private pipeIndex = 0;
  private skipUntilIn = false;
  private skipAll = false;
  private skipNext = 0;
  /** Compound commands being read (`{`, `if`, `while` …), innermost last; made on first use. */
  private groups: OpenGroup[] | undefined;
  /** The link the current stage reads when the stage before it was a group. */
  private stageLink: number | undefined;
  /** A group that closed in the current stage: the pipelines its commands ran in. */
  private closed: { from: number; to: number } | undefined;
  /** Groups opened past {@link MAX_GROUPS}, not yet closed. */
  private uncounted = 0;

  /**
   * `inherit` is the link that commands first in their pipeline read (a subshell that is a
   * pipeline stage: `… | (sh)`); `ids` allocates link ids.
   */
  constructor(
    private pipeline: number,
    private readonly out: CommandSink,
    private readonly inherit: number | undefined,
    private readonly ids: LinkIds,
  ) {}

  /** Whether a command word has been read (so `name(` starts a function definition). */
  get hasWords(): boolean {
    return this.words !== undefined;
  }

  add(word: Word): void {
    // Words that are not a command (a `for` list, a `case` subject, a function name) are kept
    // with the assignments: their substitutions still run.
    if (this.skipAll || this.skipUntilIn || this.skipNext > 0) {
      if (this.skipNext > 0) this.skipNext -= 1;
      if (this.skipUntilIn && word.raw === 'in') this.skipUntilIn = false;
      if (word.subs.length > 0) this.assigns = append(this.assigns, word);
      return;
    }
    if (this.words !== undefined) {
      this.words = append(this.words, word);
      return;
    }
    // Keywords and assignments are recognized on the raw text: a quoted keyword (`"if"`) or
    // name (`"X"=1`) is a plain word, but a quoted value (`X='a b'`) is still an assignment.
    const raw = word.raw;
    const lead = LEADS.get(raw);
    if (lead !== undefined) this.group(raw);
    if (lead === SKIP) return;
    if (lead === FOR_LIST) this.skipAll = true;
    else if (lead === CASE_SUBJECT) this.skipUntilIn = true;
    else if (lead === FUNCTION_NAME) this.skipNext = 1;
    else if (raw.includes('=') && ASSIGNMENT.test(raw)) this.assigns = append(this.assigns, word);
    else this.words = append(this.words, word);
  }

  addRedirect(redirect: Redirect): void {
    this.redirects = append(this.redirects, redirect);
  }

  /**
   * The link that commands of a group opened now read: the pipe into the current stage when the
   * group is a later stage of a pipeline, else what commands here read already.
   */
  groupInput(): number | undefined {
    if (this.pipeIndex === 0) {
      return this.groups === undefined || this.groups.length === 0
        ? this.inherit
        : this.groups[this.groups.length - 1]?.link;
    }
    if (this.stageLink !== undefined) return this.stageLink;
    const link = this.ids.nextLink();
    this.out.link(link, this.pipeline);
    return link;
  }

  /** A subshell closed in the current stage; its commands ran in pipelines `from` to `to`. */
  groupClosed(from: number, to: number): void {
    this.closed = { from, to };
  }

  /** Opens or closes a compound command at its keyword. */
  private group(keyword: string): void {
    if (OPENS.has(keyword)) {
      this.groups ??= [];
      // Past the cap a group is only counted: its commands read what the innermost one does.
      if (this.groups.length < MAX_GROUPS) {
        this.groups.push({ open: this.pipeline, link: this.groupInput() });
      } else this.uncounted += 1;
    } else if (CLOSES.has(keyword)) {
      if (this.uncounted > 0) {
        this.uncounted -= 1;
        return;
      }
      const group = this.groups?.pop();
      if (group !== undefined) this.closed = { from: group.open, to: this.pipeline - 1 };
    }
  }

  pipe(): void {
    const output = this.groupOutput();
    const flushed = this.flush(false, output);
    this.pipeIndex += 1;
    // A group with redirections was flushed as a command standing for it (reading the group's
    // output); a bare group is read by the next stage directly.
    this.stageLink = flushed ? undefined : output;
    this.closed = undefined;
  }

  end(nextPipeline: number): void {
    this.flush(true, this.redirects === undefined ? undefined : this.groupOutput());
    this.out.endPipeline(this.pipeline);
    this.pipeline = nextPipeline;
    this.pipeIndex = 0;
    this.stageLink = undefined;
    this.closed = undefined;
  }

  /**
   * When the current stage is a group that closed with nothing of its own to run (`(…) | sh`,
   * `{ …; } > f`): a link to the group's output, announced.
   */
  private groupOutput(): number | undefined {
    const closed = this.closed;
    if (closed === undefined || this.words !== undefined || this.assigns !== undefined) {
      return undefined;
    }
    const link = this.ids.nextLink();
    this.out.link(link, closed.from, closed.to);
    return link;
  }

  /** Drops the words read so far (`name()` is a definition, not a run). */
  discard(): void {
    this.words = undefined;
    this.assigns = undefined;
  }

  /**
   * Hands the command read so far to the sink; returns whether there was one. `groupOutput` is
   * the link a group's own redirections read (the command then stands for the group).
   */
  private flush(endsPipeline: boolean, groupOutput?: number): boolean {
    const any =
      this.words !== undefined || this.assigns !== undefined || this.redirects !== undefined;
    if (any) {
      this.out.command({
        words: this.words ?? NONE,
        assigns: this.assigns ?? NONE,
        redirects: this.redirects ?? NONE,
        pipeline: this.pipeline,
        pipeIndex: this.pipeIndex,
        endsPipeline,
        stdinLink:
          groupOutput ??
          (this.pipeIndex > 0
            ? this.stageLink
            : this.groups === undefined
              ? this.inherit
              : this.groupInput()),
      });
      this.words = undefined;
      this.assigns = undefined;
      this.redirects = undefined;
    }
    this.skipAll = false;
    this.skipUntilIn = false;
    this.skipNext = 0;
    return any;
  }
}
