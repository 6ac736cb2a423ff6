/**
 * A linear, regex-free shell tokenizer and parser. It reads a command the way bash would for the
 * purpose of detection — lists, pipelines, subshells, command and process substitutions,
 * here-documents, assignment prefixes, quoting and escapes — and never executes or expands
 * anything. Every character is visited a bounded number of times; nesting is capped at
 * {@link MAX_NESTING} so adversarial input cannot exhaust the stack. Top-level commands can be
 * streamed to a {@link CommandSink} as they complete, so no whole-script tree has to be kept.
 */

import {
  type HereDoc,
  newScript,
  type Redirect,
  type Script,
  type Substitution,
  type Word,
} from './ast.js';
import { NextIndex } from './brackets.js';
import { BREAK, special } from './chars.js';
import {
  CommandBuilder,
  CommandCollector,
  type CommandSink,
  type LinkIds,
} from './command-builder.js';
import { HeredocGate, type PendingHeredoc, readHeredocBody } from './heredoc.js';
import {
  MAX_NESTING,
  newAcc,
  type SourceWindow,
  WordReader,
  type WordSink,
} from './word-reader.js';

export { MAX_NESTING } from './word-reader.js';

const REDIRECT_OPS = ['&>>', '<<<', '<<-', '&>', '<<', '<&', '<>', '>>', '>&', '>|', '<', '>'];

/** The redirection operator at `pos` (longest first), `>` when none is spelled out. */
function redirectOperator(src: string, pos: number): string {
  for (const op of REDIRECT_OPS) if (src.startsWith(op, pos)) return op;
  return '>';
}

/** Keeps the first word a reader yields (a redirection target); the rest are dropped. */
class FirstWord implements WordSink {
  word: Word | undefined;

  add(word: Word): void {
    this.word ??= word;
  }
}

/** Every empty script is the same: shared, so `\`\`\`\`…` allocates nothing per pair. */
const EMPTY_SCRIPT: Script = newScript('', [], false);

/** Parses `source` into a {@link Script}. Never throws; unterminated quotes run to the end. */
export function parseShell(source: string, depth = 0): Script {
  if (source === '' && depth <= MAX_NESTING) return EMPTY_SCRIPT;
  const collector = new CommandCollector();
  if (depth > MAX_NESTING) return newScript(source, collector.commands, true);
  const parser = new Parser(source);
  parser.parseList(depth, false, collector);
  return newScript(source, collector.commands, parser.tooDeep, collector.links);
}

/**
 * Parses `source` and hands each top-level simple command (including those of subshells and
 * brace groups, which are flattened) to `sink` as soon as it is complete. Commands inside
 * substitutions are collected on their words as usual. Returns whether nesting went too deep.
 */
export function streamShell(source: string, sink: CommandSink): boolean {
  const parser = new Parser(source);
  const gate = parser.gate(sink);
  parser.parseList(0, false, gate);
  gate.release(true);
  return parser.tooDeep;
}

/**
 * Finds the substitutions the shell would run inside double-quote-like text (an expanding
 * here-document body, an arithmetic expression, `${…}` operands).
 */
export function scanExpansions(text: string, depth: number, window?: SourceWindow): Substitution[] {
  if (depth > MAX_NESTING) return [];
  const parser = new Parser(text, window);
  const acc = newAcc();
  parser.readDouble(depth, acc, false);
  return acc.subs ?? [];
}

class Parser extends WordReader implements LinkIds {
  private pipelines = 0;

  /** Allocates a link id (see `CommandSink.link`) from the pipeline counter, so ids never clash. */
  nextLink(): number {
    this.pipelines += 1;
    return this.pipelines;
  }
  /** Here-documents whose bodies start after the next newline; allocated on first use. */
  private pending: PendingHeredoc[] | undefined;
  private newlines: NextIndex | undefined;
  private heredocGate: HeredocGate | undefined;

  get newlineAhead(): boolean {
    this.newlines ??= new NextIndex(this.src, '\n');
    return this.newlines.after(this.pos) < this.len;
  }

  get heredocPending(): boolean {
    return this.pending !== undefined;
  }

  gate(sink: CommandSink): HeredocGate {
    this.heredocGate = new HeredocGate(sink, this);
    return this.heredocGate;
  }

  protected nestedList(depth: number): Script {
    const from = this.pos;
    const collector = new CommandCollector();
    if (depth + 1 > MAX_NESTING) {
      this.tooDeep = true;
      this.pos = this.len;
    } else this.parseList(depth + 1, true, collector);
    const source = this.src.slice(from, Math.max(from, this.pos - 1));
    return newScript(source, collector.commands, false, collector.links);
  }

  protected parseText(text: string, depth: number): Script {
    return parseShell(text, depth);
  }

  protected scanText(text: string, depth: number, window: SourceWindow): Substitution[] {
    return scanExpansions(text, depth, window);
  }

  /**
   * Parses commands until EOF, or until an unmatched `)` when `closes` is set. `inherit` is the
   * link a subshell's commands read (see {@link CommandBuilder}).
   */
  parseList(depth: number, closes: boolean, out: CommandSink, inherit?: number): void {
    const cmd = new CommandBuilder(++this.pipelines, out, inherit, this);
    const src = this.src;
    while (this.pos < this.len) {
      const code = src.charCodeAt(this.pos);
      const next = src.charCodeAt(this.pos + 1);
      if (code === 32 || code === 9 || code === 13) this.pos += 1;
      else if (code === 92 && next === 10) this.pos += 2;
      else if (code === 35) this.skipComment();
      else if (code === 10) {
        cmd.end(++this.pipelines);
        this.pos += 1;
        this.drainHeredocs();
      } else if (code === 59) {
        cmd.end(++this.pipelines);
        this.pos += next === 59 || next === 38 ? 2 : 1;
      } else if (code === 38 && next !== 62) {
        cmd.end(++this.pipelines);
        this.pos += next === 38 ? 2 : 1;
      } else if (code === 124) {
        if (next === 124) cmd.end(++this.pipelines);
        else cmd.pipe();
        this.pos += next === 124 || next === 38 ? 2 : 1;
      } else if (code === 41) {
        cmd.end(++this.pipelines);
        this.pos += 1;
        if (closes) return;
      } else if (code === 40) this.openParen(depth, cmd, out);
      else if ((code === 60 || code === 62) && next === 40) this.readWords(depth, cmd);
      else if (code === 60 || code === 62 || code === 38 || this.atFdRedirect()) {
        cmd.addRedirect(this.readRedirect(depth));
      } else this.readWords(depth, cmd);
    }
    cmd.end(++this.pipelines);
  }

  private openParen(depth: number, cmd: CommandBuilder, out: CommandSink): void {
    if (cmd.hasWords) {
      // `name()` (a function definition): the name is not a command being run.
      this.pos += 1;
      while (this.src.charCodeAt(this.pos) === 32) this.pos += 1;
      if (this.src.charCodeAt(this.pos) === 41) this.pos += 1;
      cmd.discard();
      return;
    }
    this.pos += 1;
    if (depth + 1 > MAX_NESTING) {
      this.tooDeep = true;
      this.pos = this.len;
      return;
    }
    const inherit = cmd.groupInput();
    const from = this.pipelines + 1;
    this.parseList(depth + 1, true, out, inherit);
    // The list ended by allocating the pipeline after `)`: its commands ran before that one.
    cmd.groupClosed(from, this.pipelines - 1);
  }

  private skipComment(): void {
    const newline = this.src.indexOf('\n', this.pos);
    this.pos = newline < 0 ? this.len : newline;
  }

  private atFdRedirect(): boolean {
    const src = this.src;
    let i = this.pos;
    while (i < this.len && i - this.pos < 4) {
      const code = src.charCodeAt(i);
      if (code < 48 || code > 57) break;
      i += 1;
    }
    if (i === this.pos) return false;
    const after = src.charCodeAt(i);
    return (after === 60 || after === 62) && src.charCodeAt(i + 1) !== 40;
  }

  private readRedirect(depth: number): Redirect {
    const src = this.src;
    const digits = this.pos;
    while (src.charCodeAt(this.pos) >= 48 && src.charCodeAt(this.pos) <= 57) this.pos += 1;
    // At most four digits (see `atFdRedirect`), so the number is small.
    const fd = this.pos > digits ? Number(src.slice(digits, this.pos)) : undefined;
    const op = redirectOperator(src, this.pos);
    this.pos += op.length;
    while (src.charCodeAt(this.pos) === 32 || src.charCodeAt(this.pos) === 9) this.pos += 1;
    const code = src.charCodeAt(this.pos);
    const atBreak =
      this.pos >= this.len || (special(BREAK, code) && src.charCodeAt(this.pos + 1) !== 40);
    let target: Word | undefined;
    if (!atBreak) {
      const first = new FirstWord();
      this.readWords(depth, first);
      target = first.word;
    }
    if (op === '<<' || op === '<<-') {
      const redirect: { op: string; target: Word | undefined; fd?: number; heredoc?: HereDoc } = {
        op: '<<',
        target,
      };
      if (fd !== undefined) redirect.fd = fd;
      // A body is read only at a newline; with none ahead it never will be, so nothing waits.
      if (this.newlineAhead) {
        this.pending ??= [];
        this.pending.push({
          redirect,
          delimiter: target?.value ?? '',
          stripTabs: op === '<<-',
          expand: !(target?.quoted ?? false),
          depth,
        });
      }
      return redirect;
    }
    return fd === undefined ? { op, target } : { op, target, fd };
  }

  private drainHeredocs(): void {
    const docs = this.pending;
    if (docs === undefined) return;
    this.pending = undefined;
    for (const doc of docs) {
      const { body, end } = readHeredocBody(this.src, this.pos, doc);
      this.pos = end;
      const subs = doc.expand ? scanExpansions(body, doc.depth + 1) : [];
      if (subs.some((sub) => sub.script.tooDeep)) this.tooDeep = true;
      doc.redirect.heredoc = { body, expand: doc.expand, subs };
    }
    this.heredocGate?.release(false);
  }
}
