/**
 * Accumulates the words, assignments and redirections of one simple command and hands the
 * finished command to a {@link CommandSink}: a collecting array for substitutions, or the
 * analyser itself, which judges each command as soon as it is complete.
 */
import type { Redirect, SimpleCommand, Word } from './ast.js';
import type { WordSink } from './word-reader.js';

/** Receives simple commands in source order as the parser completes them. */
export interface CommandSink {
  command(command: SimpleCommand): void;
  /** No command parsed after this call belongs to pipeline `id`. */
  endPipeline(id: number): void;
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

  /** The commands received, in order. */
  get commands(): readonly SimpleCommand[] {
    return this.list ?? NONE;
  }

  command(command: SimpleCommand): void {
    this.list = append(this.list, command);
  }

  endPipeline(): void {}
}

/** What a first word that is not a command does (see {@link CommandBuilder.add}). */
const SKIP = 1;
const FOR_LIST = 2;
const CASE_SUBJECT = 3;
const FUNCTION_NAME = 4;

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

  constructor(
    private pipeline: number,
    private readonly out: CommandSink,
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

  pipe(): void {
    this.flush(false);
    this.pipeIndex += 1;
  }

  end(nextPipeline: number): void {
    this.flush(true);
    this.out.endPipeline(this.pipeline);
    this.pipeline = nextPipeline;
    this.pipeIndex = 0;
  }

  /** Drops the words read so far (`name()` is a definition, not a run). */
  discard(): void {
    this.words = undefined;
    this.assigns = undefined;
  }

  private flush(endsPipeline: boolean): void {
    if (this.words !== undefined || this.assigns !== undefined || this.redirects !== undefined) {
      this.out.command({
        words: this.words ?? NONE,
        assigns: this.assigns ?? NONE,
        redirects: this.redirects ?? NONE,
        pipeline: this.pipeline,
        pipeIndex: this.pipeIndex,
        endsPipeline,
      });
      this.words = undefined;
      this.assigns = undefined;
      this.redirects = undefined;
    }
    this.skipAll = false;
    this.skipUntilIn = false;
    this.skipNext = 0;
  }
}
