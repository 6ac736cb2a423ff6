/**
 * A linear, regex-free shell tokenizer and parser. It reads a command the way bash would for the
 * purpose of detection — lists, pipelines, subshells, command and process substitutions,
 * here-documents, assignment prefixes, quoting and escapes — and never executes or expands
 * anything. Every character is visited a bounded number of times; nesting is capped at
 * {@link MAX_NESTING} so adversarial input cannot exhaust the stack.
 */

import { decodeAnsiC } from './ansi-c.js';
import type { HereDoc, Redirect, Script, SimpleCommand, Substitution, Word } from './ast.js';

/** Deeper nesting of substitutions and subshells than this marks the script `tooDeep`. */
export const MAX_NESTING = 48;

const BREAK = new Uint8Array(128);
for (const ch of ' \t\r\n;&|()<>') BREAK[ch.charCodeAt(0)] = 1;
const WORD_SPECIAL = new Uint8Array(128);
for (const ch of ' \t\r\n;&|()<>\\\'"`$') WORD_SPECIAL[ch.charCodeAt(0)] = 1;
const DQ_SPECIAL = new Uint8Array(128);
for (const ch of '"\\$`') DQ_SPECIAL[ch.charCodeAt(0)] = 1;

const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until']);
const GROUP_WORDS = new Set(['{', '}', '!', 'esac', '[[', ']]']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/;

interface Acc {
  value: string;
  quoted: boolean;
  dynamic: boolean;
  subs: Substitution[];
}

interface PendingHeredoc {
  readonly redirect: { heredoc?: HereDoc };
  readonly delimiter: string;
  readonly stripTabs: boolean;
  readonly expand: boolean;
  readonly depth: number;
}

function isNameStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

function isNameChar(code: number): boolean {
  return isNameStart(code) || (code >= 48 && code <= 57);
}

function special(table: Uint8Array, code: number): boolean {
  return code < 128 && table[code] === 1;
}

/** Parses `source` into a {@link Script}. Never throws; unterminated quotes run to the end. */
export function parseShell(source: string, depth = 0): Script {
  const parser = new Parser(source);
  const commands: SimpleCommand[] = [];
  if (depth > MAX_NESTING) return { source, commands, tooDeep: true };
  parser.parseList(depth, false, commands);
  return { source, commands, tooDeep: parser.tooDeep };
}

/**
 * Finds the substitutions the shell would run inside double-quote-like text (an expanding
 * here-document body, an arithmetic expression, `${…}` operands).
 */
export function scanExpansions(text: string, depth: number): Substitution[] {
  const parser = new Parser(text);
  const acc: Acc = { value: '', quoted: false, dynamic: false, subs: [] };
  if (depth > MAX_NESTING) return [];
  parser.readDouble(depth, acc, false);
  return acc.subs;
}

class Parser {
  pos = 0;
  tooDeep = false;
  private pipelines = 0;
  private readonly pending: PendingHeredoc[] = [];
  private readonly len: number;

  constructor(private readonly src: string) {
    this.len = src.length;
  }

  /** Parses commands until EOF, or until an unmatched `)` when `closes` is set. */
  parseList(depth: number, closes: boolean, out: SimpleCommand[]): void {
    const cmd = new CommandBuilder(++this.pipelines, out);
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
      else if ((code === 60 || code === 62) && next === 40) this.readWordsInto(depth, cmd);
      else if (code === 60 || code === 62 || code === 38 || this.atFdRedirect()) {
        cmd.redirects.push(this.readRedirect(depth));
      } else this.readWordsInto(depth, cmd);
    }
    cmd.end(++this.pipelines);
  }

  private openParen(depth: number, cmd: CommandBuilder, out: SimpleCommand[]): void {
    if (cmd.words.length > 0) {
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
    this.parseList(depth + 1, true, out);
  }

  private skipComment(): void {
    const newline = this.src.indexOf('\n', this.pos);
    this.pos = newline < 0 ? this.len : newline;
  }

  private atFdRedirect(): boolean {
    let i = this.pos;
    while (i < this.len && i - this.pos < 4) {
      const code = this.src.charCodeAt(i);
      if (code < 48 || code > 57) break;
      i += 1;
    }
    if (i === this.pos) return false;
    const after = this.src.charCodeAt(i);
    return (after === 60 || after === 62) && this.src.charCodeAt(i + 1) !== 40;
  }

  private readRedirect(depth: number): Redirect {
    const src = this.src;
    while (src.charCodeAt(this.pos) >= 48 && src.charCodeAt(this.pos) <= 57) this.pos += 1;
    const ops = ['&>>', '<<<', '<<-', '&>', '<<', '<&', '<>', '>>', '>&', '>|', '<', '>'];
    const op = ops.find((candidate) => src.startsWith(candidate, this.pos)) ?? '>';
    this.pos += op.length;
    while (src.charCodeAt(this.pos) === 32 || src.charCodeAt(this.pos) === 9) this.pos += 1;
    const code = src.charCodeAt(this.pos);
    const atBreak =
      this.pos >= this.len || (special(BREAK, code) && src.charCodeAt(this.pos + 1) !== 40);
    const target = atBreak ? undefined : this.readWords(depth)[0];
    if (op === '<<' || op === '<<-') {
      const redirect: { op: string; target: Word | undefined; heredoc?: HereDoc } = {
        op: '<<',
        target,
      };
      this.pending.push({
        redirect,
        delimiter: target?.value ?? '',
        stripTabs: op === '<<-',
        expand: !(target?.quoted ?? false),
        depth,
      });
      return redirect;
    }
    return { op, target };
  }

  private drainHeredocs(): void {
    for (const doc of this.pending.splice(0)) {
      let body = '';
      while (this.pos < this.len) {
        const newline = this.src.indexOf('\n', this.pos);
        const end = newline < 0 ? this.len : newline;
        const line = this.src.slice(this.pos, end);
        this.pos = newline < 0 ? this.len : newline + 1;
        const compared = doc.stripTabs ? line.replace(/^\t+/, '') : line;
        if (compared === doc.delimiter || compared === `${doc.delimiter}\r`) break;
        body += `${line}\n`;
      }
      const subs = doc.expand ? scanExpansions(body, doc.depth + 1) : [];
      if (subs.some((sub) => sub.script.tooDeep)) this.tooDeep = true;
      doc.redirect.heredoc = { body, expand: doc.expand, subs };
    }
  }

  private readWordsInto(depth: number, cmd: CommandBuilder): void {
    for (const word of this.readWords(depth)) cmd.add(word);
  }

  /** Reads one shell word; an unquoted `$IFS` splits it, so it may yield several. */
  readWords(depth: number): Word[] {
    const words: Word[] = [];
    const src = this.src;
    let start = this.pos;
    let acc: Acc = { value: '', quoted: false, dynamic: false, subs: [] };
    const emit = (): void => {
      if (acc.value !== '' || acc.quoted || acc.subs.length > 0) {
        words.push({ raw: src.slice(start, this.pos), ...acc });
      }
      acc = { value: '', quoted: false, dynamic: false, subs: [] };
      start = this.pos;
    };
    while (this.pos < this.len) {
      const code = src.charCodeAt(this.pos);
      if (!special(WORD_SPECIAL, code)) {
        const from = this.pos;
        while (this.pos < this.len && !special(WORD_SPECIAL, src.charCodeAt(this.pos))) {
          this.pos += 1;
        }
        acc.value += src.slice(from, this.pos);
      } else if (code === 92) {
        if (src.charCodeAt(this.pos + 1) !== 10) {
          acc.value += src.charAt(this.pos + 1);
          acc.quoted = true;
        }
        this.pos += 2;
      } else if (code === 39) {
        const end = src.indexOf("'", this.pos + 1);
        const stop = end < 0 ? this.len : end;
        acc.value += src.slice(this.pos + 1, stop);
        acc.quoted = true;
        this.pos = stop + 1;
      } else if (code === 34) {
        this.pos += 1;
        acc.quoted = true;
        this.readDouble(depth, acc, true);
      } else if (code === 96) this.readBacktick(depth, acc);
      else if (code === 36) {
        if (this.readDollar(depth, acc, false)) emit();
      } else if ((code === 60 || code === 62) && src.charCodeAt(this.pos + 1) === 40) {
        const from = this.pos;
        this.pos += 2;
        const script = this.nested(depth);
        acc.value += src.slice(from, this.pos);
        acc.dynamic = true;
        acc.subs.push({ kind: 'process', script });
      } else break;
    }
    this.pos = Math.min(this.pos, this.len);
    emit();
    return words;
  }

  /** Reads double-quoted text up to the closing quote (or to the end when `closing` is false). */
  readDouble(depth: number, acc: Acc, closing: boolean): void {
    const src = this.src;
    while (this.pos < this.len) {
      const code = src.charCodeAt(this.pos);
      if (!special(DQ_SPECIAL, code)) {
        const from = this.pos;
        while (this.pos < this.len && !special(DQ_SPECIAL, src.charCodeAt(this.pos))) {
          this.pos += 1;
        }
        acc.value += src.slice(from, this.pos);
      } else if (code === 34) {
        this.pos += 1;
        if (closing) return;
        acc.value += '"';
      } else if (code === 92) {
        const next = src.charAt(this.pos + 1);
        if (next === '\n') this.pos += 2;
        else if (next === '$' || next === '`' || next === '"' || next === '\\') {
          acc.value += next;
          this.pos += 2;
        } else {
          acc.value += '\\';
          this.pos += 1;
        }
      } else if (code === 96) this.readBacktick(depth, acc);
      else this.readDollar(depth, acc, true);
    }
  }

  /** Handles a `$` at `pos`. Returns true when an unquoted `$IFS` splits the word here. */
  private readDollar(depth: number, acc: Acc, inDouble: boolean): boolean {
    const src = this.src;
    const from = this.pos;
    const next = src.charCodeAt(this.pos + 1);
    if (next === 39 && !inDouble) {
      let i = this.pos + 2;
      while (i < this.len && src.charCodeAt(i) !== 39) i += src.charCodeAt(i) === 92 ? 2 : 1;
      acc.value += decodeAnsiC(src.slice(this.pos + 2, Math.min(i, this.len)));
      acc.quoted = true;
      this.pos = i + 1;
    } else if (next === 34 && !inDouble) {
      this.pos += 2;
      acc.quoted = true;
      this.readDouble(depth, acc, true);
    } else if (next === 40 && src.charCodeAt(this.pos + 2) === 40) {
      const end = this.matchParens(this.pos + 1);
      this.addSubs(acc, scanExpansions(src.slice(this.pos + 3, end), depth + 1));
      this.pos = end;
      acc.value += src.slice(from, end);
      acc.dynamic = true;
    } else if (next === 40) {
      this.pos += 2;
      const script = this.nested(depth);
      acc.value += src.slice(from, this.pos);
      acc.dynamic = true;
      acc.subs.push({ kind: 'command', script });
    } else if (next === 123) {
      const end = this.matchBraces(this.pos + 1);
      const inner = src.slice(this.pos + 2, Math.max(this.pos + 2, end - 1));
      this.pos = end;
      if (/^IFS(?:$|[^A-Za-z0-9_])/.test(inner)) return this.ifs(acc, inDouble);
      this.addSubs(acc, scanExpansions(inner, depth + 1));
      acc.value += src.slice(from, end);
      acc.dynamic = true;
    } else if (isNameStart(next)) {
      let i = this.pos + 1;
      while (i < this.len && isNameChar(src.charCodeAt(i))) i += 1;
      this.pos = i;
      if (src.slice(from + 1, i) === 'IFS') return this.ifs(acc, inDouble);
      acc.value += src.slice(from, i);
      acc.dynamic = true;
    } else if (next === 64 || next === 42 || next === 35 || next === 63 || next === 33) {
      acc.value += src.slice(from, from + 2);
      acc.dynamic = true;
      this.pos += 2;
    } else if ((next >= 48 && next <= 57) || next === 36 || next === 45) {
      acc.value += src.slice(from, from + 2);
      acc.dynamic = true;
      this.pos += 2;
    } else {
      acc.value += '$';
      this.pos += 1;
    }
    return false;
  }

  private ifs(acc: Acc, inDouble: boolean): boolean {
    if (inDouble) acc.value += ' ';
    return !inDouble;
  }

  private addSubs(acc: Acc, subs: Substitution[]): void {
    for (const sub of subs) {
      if (sub.script.tooDeep) this.tooDeep = true;
      acc.subs.push(sub);
    }
  }

  private readBacktick(depth: number, acc: Acc): void {
    const src = this.src;
    let i = this.pos + 1;
    let inner = '';
    // Cached so that many escapes before the closing backtick do not rescan the rest each time.
    let tick = -1;
    let slash = -1;
    while (i < this.len && src.charCodeAt(i) !== 96) {
      if (src.charCodeAt(i) === 92 && i + 1 < this.len) {
        const escaped = src.charAt(i + 1);
        inner += escaped === '`' || escaped === '\\' || escaped === '$' ? escaped : `\\${escaped}`;
        i += 2;
        continue;
      }
      if (tick < i) tick = src.indexOf('`', i) < 0 ? this.len : src.indexOf('`', i);
      if (slash < i) slash = src.indexOf('\\', i) < 0 ? this.len : src.indexOf('\\', i);
      // A lone backslash at the very end is literal; always make progress.
      const end = Math.max(Math.min(tick, slash), i + 1);
      inner += src.slice(i, end);
      i = end;
    }
    const script = parseShell(inner, depth + 1);
    if (script.tooDeep) this.tooDeep = true;
    acc.value += src.slice(this.pos, Math.min(i + 1, this.len));
    acc.dynamic = true;
    acc.subs.push({ kind: 'command', script });
    this.pos = i + 1;
  }

  private nested(depth: number): Script {
    const from = this.pos;
    const commands: SimpleCommand[] = [];
    if (depth + 1 > MAX_NESTING) {
      this.tooDeep = true;
      this.pos = this.len;
    } else this.parseList(depth + 1, true, commands);
    return { source: this.src.slice(from, Math.max(from, this.pos - 1)), commands, tooDeep: false };
  }

  /** The index just past the `)` matching the `(` at `open`, counting nested parentheses. */
  private matchParens(open: number): number {
    let level = 0;
    for (let i = open; i < this.len; i += 1) {
      const code = this.src.charCodeAt(i);
      if (code === 40) level += 1;
      else if (code === 41) {
        level -= 1;
        if (level === 0) return i + 1;
      }
    }
    return this.len;
  }

  private matchBraces(open: number): number {
    let level = 0;
    for (let i = open; i < this.len; i += 1) {
      const code = this.src.charCodeAt(i);
      if (code === 123) level += 1;
      else if (code === 125) {
        level -= 1;
        if (level === 0) return i + 1;
      }
    }
    return this.len;
  }
}

/** Accumulates one simple command and hands it to the output list when it ends. */
class CommandBuilder {
  words: Word[] = [];
  assigns: Word[] = [];
  redirects: Redirect[] = [];
  private pipeIndex = 0;
  private skipUntilIn = false;
  private skipAll = false;
  private skipNext = 0;

  constructor(
    private pipeline: number,
    private readonly out: SimpleCommand[],
  ) {}

  add(word: Word): void {
    // Words that are not a command (a `for` list, a `case` subject, a function name) are kept
    // with the assignments: their substitutions still run.
    if (this.skipAll || this.skipUntilIn || this.skipNext > 0) {
      if (this.skipNext > 0) this.skipNext -= 1;
      if (this.skipUntilIn && word.raw === 'in') this.skipUntilIn = false;
      if (word.subs.length > 0) this.assigns.push(word);
      return;
    }
    if (this.words.length > 0 || word.quoted) {
      this.words.push(word);
      return;
    }
    if (KEYWORDS.has(word.raw) || GROUP_WORDS.has(word.raw)) return;
    if (word.raw === 'for' || word.raw === 'select') this.skipAll = true;
    else if (word.raw === 'case') this.skipUntilIn = true;
    else if (word.raw === 'function') this.skipNext = 1;
    else if (ASSIGNMENT.test(word.raw)) this.assigns.push(word);
    else this.words.push(word);
  }

  pipe(): void {
    this.flush();
    this.pipeIndex += 1;
  }

  end(nextPipeline: number): void {
    this.flush();
    this.pipeline = nextPipeline;
    this.pipeIndex = 0;
  }

  discard(): void {
    this.words = [];
    this.assigns = [];
  }

  private flush(): void {
    const empty = this.words.length + this.assigns.length + this.redirects.length === 0;
    if (!empty) {
      this.out.push({
        words: this.words,
        assigns: this.assigns,
        redirects: this.redirects,
        pipeline: this.pipeline,
        pipeIndex: this.pipeIndex,
      });
    }
    this.words = [];
    this.assigns = [];
    this.redirects = [];
    this.skipAll = false;
    this.skipUntilIn = false;
    this.skipNext = 0;
  }
}
