/**
 * The variables a script sets to values the line spells out (`X=rm`, `IFS=,`, `export Y=/`), and
 * the expansion of words with them, as bash would: unquoted expansions are split into fields on
 * `IFS` (so `IFS=,; c=rm,-rf,/; $c` runs `rm -rf /`), quoted ones are not. A word that cannot be
 * expanded soundly — an unknown variable, an `IFS` the line computes, `$@`, `${X:-…}` — is left
 * as it is, and a command name left that way is a dynamic command.
 */
import { decodeAnsiC } from '../shell/ansi-c.js';
import type { Word } from '../shell/ast.js';
import { isNameChar, isNameStart } from '../shell/chars.js';
import type { Invocation } from '../shell/unwrap.js';
import { printfOutput } from './printf.js';

const DEFAULT_IFS = ' \t\n';
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/;

/** Builtins whose `NAME=value` arguments set variables. */
const DECLARERS = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);

/** A word made of `value` alone, as the rules see a word the shell produced. */
export function plainWord(value: string, dynamic = false): Word {
  return { raw: value, value, quoted: false, dynamic, subs: [] };
}

/** Builds the fields of one word while its raw text is read. */
class Fields {
  readonly list: string[] = [];
  /** For each field of {@link list}: an unquoted expansion put a glob character in it. */
  readonly globs: boolean[] = [];
  current = '';
  /** Whether the current field exists even if empty (a quoted `""`). */
  started = false;
  /** Whether pathname expansion may change the current field. */
  private globbed = false;
  /** The last field ended at IFS white space: a following IFS delimiter is part of it. */
  private splitAtBlank = false;

  literal(text: string): void {
    this.current += text;
    this.started = true;
    this.splitAtBlank = false;
  }

  /** An unquoted expansion: split on `ifs`. */
  split(value: string, ifs: string): void {
    for (const ch of value) {
      if (!ifs.includes(ch)) {
        this.literal(ch);
        if (ch === '*' || ch === '?' || ch === '[') this.globbed = true;
      } else if (ch === ' ' || ch === '\t' || ch === '\n') {
        if (this.started || this.current !== '') {
          this.end();
          this.splitAtBlank = true;
        }
      } else if (this.splitAtBlank && !this.started && this.current === '') {
        this.splitAtBlank = false;
      } else this.end();
    }
  }

  end(): void {
    this.list.push(this.current);
    this.globs.push(this.globbed);
    this.current = '';
    this.started = false;
    this.globbed = false;
  }

  finish(): string[] {
    if (this.started || this.current !== '') this.end();
    return this.list;
  }

  /** The fields as words; one pathname expansion may change is marked dynamic. */
  words(): Word[] {
    return this.finish().map((value, i) => plainWord(value, this.globs[i] ?? false));
  }
}

/** Per script: the variables set to known values. */
export class Variables {
  private readonly values = new Map<string, string>();
  /** False once `IFS` is set to a value the line computes: no unquoted expansion can be split. */
  private ifsKnown = true;

  /** Records one `NAME=value` assignment word (a command of assignments only). */
  assign(word: Word): void {
    const match = ASSIGNMENT.exec(word.value);
    if (match === null) {
      // `a[1]=x`: arrays are not followed; the name is no longer known.
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(word.value)?.[0];
      if (name !== undefined) this.forget(name);
      return;
    }
    const name = match[1] as string;
    const raw = word.raw;
    const at = raw.indexOf('=');
    const value = word.dynamic
      ? this.expandRaw(raw, at + 1, false)?.[0]
      : word.value.slice(match[0].length);
    if (value === undefined) {
      this.forget(name);
      return;
    }
    const before = match[2] === '+' ? this.values.get(name) : '';
    if (before === undefined) this.forget(name);
    else this.set(name, before + value);
  }

  private set(name: string, value: string): void {
    this.values.set(name, value);
    if (name === 'IFS') this.ifsKnown = true;
  }

  private forget(name: string): void {
    this.values.delete(name);
    if (name === 'IFS') this.ifsKnown = false;
  }

  /** Whether command `name` with `args` may set a variable (a script with none needs a table). */
  static sets(name: string, args: readonly string[]): boolean {
    switch (name) {
      case 'export':
      case 'declare':
      case 'typeset':
      case 'local':
      case 'readonly':
        return true;
      case 'printf':
        return args[0] === '-v';
      default:
        return false;
    }
  }

  /** Follows the builtins that set or clear variables: `export X=…`, `read X`, `unset X`, `printf -v`. */
  afterCommand(inv: Invocation): void {
    const { name, args, argWords } = inv;
    if (DECLARERS.has(name)) {
      argWords.forEach((word, i) => {
        if (ASSIGNMENT.test(args[i] as string)) this.assign(word);
      });
    } else if (name === 'unset') {
      for (const arg of args) {
        if (arg === '-f') return;
        if (NAME.test(arg)) {
          this.values.delete(arg);
          if (arg === 'IFS') this.ifsKnown = true; // unset IFS splits as the default does
        }
      }
    } else if (name === 'read' || name === 'mapfile' || name === 'readarray') {
      for (const arg of args) if (NAME.test(arg)) this.forget(arg);
      this.forget('REPLY');
    } else if (name === 'printf' && args[0] === '-v' && args[1] !== undefined) {
      const dynamic = argWords.slice(2).some((word) => word.dynamic);
      const printed = printfOutput(args[2] ?? '', args.slice(3));
      if (dynamic || !printed.exact) this.forget(args[1]);
      else this.set(args[1], printed.text);
    }
  }

  /**
   * The fields `word` expands to, or `undefined` when it cannot be expanded soundly (it is then
   * left as written). Fields that pathname expansion may change are marked dynamic.
   */
  expand(
    word: Word,
    substituted?: (word: Word) => string | undefined,
    split = true,
  ): Word[] | undefined {
    if (word.subs.length > 0) return this.expandSubstitution(word, substituted, split);
    const fields = new Fields();
    if (this.read(word.raw, 0, split, fields) === undefined) return undefined;
    return split ? fields.words() : [plainWord(fields.finish().join(''))];
  }

  /** A word that is one substitution whose output the line knows (`$(echo rm)`). */
  private expandSubstitution(
    word: Word,
    substituted: ((word: Word) => string | undefined) | undefined,
    split: boolean,
  ): Word[] | undefined {
    const raw = word.raw;
    const source = word.subs.length === 1 ? word.subs[0]?.script.source : undefined;
    if (source === undefined || raw.length > source.length + 5) return undefined;
    const quoted = raw.startsWith('"') && raw.endsWith('"');
    const inner = quoted ? raw.slice(1, -1) : raw;
    if (inner !== `$(${source})` && inner !== `\`${source}\``) return undefined;
    const output = substituted?.(word)?.replace(/\n+$/, '');
    if (output === undefined) return undefined;
    if (quoted || !split) return [plainWord(output)];
    const fields = new Fields();
    if (!this.ifsKnown) return undefined;
    fields.split(output, this.values.get('IFS') ?? DEFAULT_IFS);
    return fields.words();
  }

  /** Reads `raw` from `from`; `undefined` when some part cannot be expanded. */
  private expandRaw(raw: string, from: number, split: boolean): string[] | undefined {
    const fields = new Fields();
    if (this.read(raw, from, split, fields) === undefined) return undefined;
    return split ? fields.finish() : [fields.finish().join('')];
  }

  /**
   * Reads one word's raw text into `fields`. Returns `undefined` at anything it does not expand:
   * a substitution, an unknown or special parameter, an operator inside `${…}`, a backtick.
   */
  private read(raw: string, from: number, split: boolean, fields: Fields): true | undefined {
    // Values come from the same line; capping growth keeps `$X$X$X…` linear.
    const limit = 2 * raw.length + 1024;
    let i = from;
    while (i < raw.length) {
      if (fields.current.length > limit || fields.list.length > limit) return undefined;
      const ch = raw.charAt(i);
      if (ch === "'") {
        const end = raw.indexOf("'", i + 1);
        if (end < 0) return undefined;
        fields.literal(raw.slice(i + 1, end));
        i = end + 1;
      } else if (ch === '"') {
        const end = this.readDouble(raw, i + 1, fields);
        if (end === undefined) return undefined;
        i = end;
      } else if (ch === '\\') {
        if (raw.charAt(i + 1) !== '\n') fields.literal(raw.charAt(i + 1));
        i += 2;
      } else if (ch === '`') {
        return undefined;
      } else if (ch === '$') {
        const end = this.readDollar(raw, i, false, split, fields);
        if (end === undefined) return undefined;
        i = end;
      } else {
        let end = i + 1;
        while (end < raw.length && !'\'"\\`$'.includes(raw.charAt(end))) end += 1;
        fields.literal(raw.slice(i, end));
        i = end;
      }
    }
    return true;
  }

  /** Double-quoted text from `from` (after the quote); the index after the closing quote. */
  private readDouble(raw: string, from: number, fields: Fields): number | undefined {
    let i = from;
    fields.literal('');
    while (i < raw.length) {
      const ch = raw.charAt(i);
      if (ch === '"') return i + 1;
      if (ch === '`') return undefined;
      if (ch === '\\') {
        const next = raw.charAt(i + 1);
        if (next === '\n') {
          i += 2;
          continue;
        }
        fields.literal('$`"\\'.includes(next) ? next : `\\${next}`);
        i += 2;
      } else if (ch === '$') {
        const end = this.readDollar(raw, i, true, false, fields);
        if (end === undefined) return undefined;
        i = end;
      } else {
        fields.literal(ch);
        i += 1;
      }
    }
    return undefined;
  }

  /**
   * A `$…` at `at` (inside double quotes when `inDouble`; its value split into fields when
   * `split`); the index after it, or `undefined` when it cannot be expanded.
   */
  private readDollar(
    raw: string,
    at: number,
    inDouble: boolean,
    split: boolean,
    fields: Fields,
  ): number | undefined {
    const next = raw.charCodeAt(at + 1);
    if (!inDouble && next === 39) {
      let end = at + 2;
      while (end < raw.length && raw.charCodeAt(end) !== 39)
        end += raw.charCodeAt(end) === 92 ? 2 : 1;
      if (end >= raw.length) return undefined;
      fields.literal(decodeAnsiC(raw.slice(at + 2, end)));
      return end + 1;
    }
    if (!inDouble && next === 34) return this.readDouble(raw, at + 2, fields);
    let name: string;
    let end: number;
    if (next === 123) {
      end = raw.indexOf('}', at + 2);
      name = end < 0 ? '' : raw.slice(at + 2, end);
      end += 1;
      if (!NAME.test(name)) return undefined;
    } else if (isNameStart(next)) {
      end = at + 2;
      while (end < raw.length && isNameChar(raw.charCodeAt(end))) end += 1;
      name = raw.slice(at + 1, end);
    } else if (Number.isNaN(next) || next === 32 || next === 9 || next === 10 || next === 34) {
      fields.literal('$'); // a lone `$` is itself
      return at + 1;
    } else return undefined;
    // An `IFS` the line never set is the default one.
    const value =
      this.values.get(name) ?? (name === 'IFS' && this.ifsKnown ? DEFAULT_IFS : undefined);
    if (value === undefined) return undefined;
    if (!split) fields.literal(value);
    else if (!this.ifsKnown) return undefined;
    else fields.split(value, this.values.get('IFS') ?? DEFAULT_IFS);
    return end;
  }
}
