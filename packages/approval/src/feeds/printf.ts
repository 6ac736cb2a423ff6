/**
 * What bash's `echo` and `printf` builtins print for static arguments, so that text they pipe
 * or write into a shell can be judged as the script it becomes (`printf '\x72m -rf %s' /`).
 * Linear in the input; widths and precisions are capped so no format can print more than a
 * bounded amount beyond its arguments.
 */

/** Printed text, and whether every part of the format was modelled exactly. */
export interface Printed {
  readonly text: string;
  /** False when a conversion was not modelled (`%(…)T`, `%a`): part of the text is unknown. */
  readonly exact: boolean;
}

/** Padding beyond this is cut: spaces and zeros do not change what a shell runs. */
const MAX_PAD = 256;

const SIMPLE: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
};

function isOctal(code: number): boolean {
  return code >= 48 && code <= 55;
}

function isHex(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/** The end of a run of at most `max` characters accepted by `accept`, from `from`. */
function run(text: string, from: number, max: number, accept: (code: number) => boolean): number {
  let end = from;
  while (end < text.length && end - from < max && accept(text.charCodeAt(end))) end += 1;
  return end;
}

function codePoint(code: number): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : '';
}

/**
 * One backslash escape at `text[at]` (the backslash). `echo` style (`echo -e`, `%b`) takes octal
 * as `\0NNN` and stops all output at `\c`; printf's format takes `\NNN` and `\"`, and prints `\c`
 * as it is. Returns the decoded text and the index after the escape, or `stop` for `\c`.
 */
function escapeAt(
  text: string,
  at: number,
  echoStyle: boolean,
): { out: string; next: number; stop?: boolean } {
  const kind = text.charAt(at + 1);
  const simple = SIMPLE[kind];
  if (simple !== undefined) return { out: simple, next: at + 2 };
  if (kind === 'c' && echoStyle) return { out: '', next: text.length, stop: true };
  if (kind === 'x' || kind === 'u' || kind === 'U') {
    const end = run(text, at + 2, kind === 'x' ? 2 : kind === 'u' ? 4 : 8, isHex);
    if (end === at + 2) return { out: `\\${kind}`, next: at + 2 };
    return { out: codePoint(Number.parseInt(text.slice(at + 2, end), 16)), next: end };
  }
  if (echoStyle && kind === '0') {
    const end = run(text, at + 2, 3, isOctal);
    const value = end > at + 2 ? Number.parseInt(text.slice(at + 2, end), 8) : 0;
    return { out: String.fromCharCode(value & 0xff), next: end };
  }
  if (!echoStyle && isOctal(text.charCodeAt(at + 1))) {
    const end = run(text, at + 1, 3, isOctal);
    return {
      out: String.fromCharCode(Number.parseInt(text.slice(at + 1, end), 8) & 0xff),
      next: end,
    };
  }
  if (!echoStyle && (kind === '"' || kind === "'" || kind === '?'))
    return { out: kind, next: at + 2 };
  // Unknown escapes keep their backslash; a backslash at the very end is itself.
  return { out: kind === '' ? '\\' : `\\${kind}`, next: Math.min(text.length, at + 2) };
}

/** Decodes `echo -e` / `%b` escapes; `stop` is set when `\c` ended all output. */
export function echoEscapes(text: string): { text: string; stop: boolean } {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const slash = text.indexOf('\\', i);
    if (slash < 0) return { text: out + text.slice(i), stop: false };
    out += text.slice(i, slash);
    const step = escapeAt(text, slash, true);
    out += step.out;
    if (step.stop) return { text: out, stop: true };
    i = step.next;
  }
  return { text: out, stop: false };
}

const ECHO_OPTION = /^-[neE]+$/;

/** What bash's `echo args…` prints (options `-n`, `-e`, `-E`, as bash reads them). */
export function echoOutput(args: readonly string[]): string {
  let newline = true;
  let escapes = false;
  let first = 0;
  while (first < args.length && ECHO_OPTION.test(args[first] as string)) {
    for (const letter of (args[first] as string).slice(1)) {
      if (letter === 'n') newline = false;
      else escapes = letter === 'e';
    }
    first += 1;
  }
  const joined = args.slice(first).join(' ');
  if (!escapes) return newline ? `${joined}\n` : joined;
  const decoded = echoEscapes(joined);
  return decoded.stop || !newline ? decoded.text : `${decoded.text}\n`;
}

/** One `%…` conversion; a `*` width or precision is taken from the arguments. */
interface Spec {
  readonly flags: string;
  readonly width: number | '*' | undefined;
  readonly precision: number | '*' | undefined;
  readonly conversion: string;
}

/** A format, read once: literal text (escapes decoded, `%%` as `%`) and conversions. */
type Part = string | Spec;

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isFlag(code: number): boolean {
  return code === 45 || code === 43 || code === 32 || code === 35 || code === 48;
}

/** Reads a width or precision at `at`: digits, or `*`. */
function readCount(format: string, at: number): { value: number | '*' | undefined; next: number } {
  if (format.charAt(at) === '*') return { value: '*', next: at + 1 };
  const end = run(format, at, 10, isDigit);
  return { value: end > at ? Number(format.slice(at, end)) : undefined, next: end };
}

/** The conversion whose `%` is at `at`, and the index after it. */
function readSpec(format: string, at: number): { spec: Spec; next: number } {
  const flagsEnd = run(format, at + 1, 8, isFlag);
  const width = readCount(format, flagsEnd);
  let next = width.next;
  let precision: number | '*' | undefined;
  if (format.charAt(next) === '.') {
    const read = readCount(format, next + 1);
    precision = read.value ?? 0;
    next = read.next;
  }
  const flags = format.slice(at + 1, flagsEnd);
  const spec = { flags, width: width.value, precision, conversion: format.charAt(next) };
  return { spec, next: next + 1 };
}

/** Reads `format` into its parts. */
function compile(format: string): Part[] {
  const parts: Part[] = [];
  let literal = '';
  let i = 0;
  while (i < format.length) {
    const code = format.charCodeAt(i);
    if (code === 92) {
      const step = escapeAt(format, i, false);
      literal += step.out;
      i = step.next;
    } else if (code === 37 && format.charCodeAt(i + 1) === 37) {
      literal += '%';
      i += 2;
    } else if (code === 37) {
      if (literal !== '') parts.push(literal);
      literal = '';
      const read = readSpec(format, i);
      parts.push(read.spec);
      i = read.next;
    } else {
      const slash = format.indexOf('\\', i);
      const percent = format.indexOf('%', i);
      const end = Math.min(
        slash < 0 ? format.length : slash,
        percent < 0 ? format.length : percent,
      );
      literal += format.slice(i, end);
      i = end;
    }
  }
  if (literal !== '') parts.push(literal);
  return parts;
}

/** printf's reading of a numeric argument: `'c` is the character's code; junk is 0. */
function toInteger(arg: string): number {
  if (arg.startsWith("'") || arg.startsWith('"')) return arg.codePointAt(1) ?? 0;
  const value = Number.parseInt(arg, /^[-+]?0[xX]/.test(arg) ? 16 : /^[-+]?0\d/.test(arg) ? 8 : 10);
  return Number.isFinite(value) ? value : 0;
}

function pad(text: string, flags: string, width: number | undefined): string {
  const size = Math.min(width ?? 0, MAX_PAD);
  if (text.length >= size) return text;
  const left = flags.includes('-');
  const fill = (flags.includes('0') && !left ? '0' : ' ').repeat(size - text.length);
  return left ? text + fill : fill + text;
}

const QUOTE_SAFE = /[A-Za-z0-9_./:@%+=,^#~-]/;

/** A control character: `%q` then uses the `$'…'` form. */
function isControl(code: number): boolean {
  return code < 32 || code === 127;
}
const CONTROL_NAMES: Readonly<Record<string, string>> = {
  '\x07': 'a',
  '\b': 'b',
  '\x1b': 'E',
  '\f': 'f',
  '\n': 'n',
  '\r': 'r',
  '\t': 't',
  '\v': 'v',
};

/** `%q`: bash's quoting of `arg`, which the shell reads back as the same single word. */
function shellQuote(arg: string): string {
  if (arg === '') return "''";
  let control = false;
  for (let i = 0; i < arg.length && !control; i += 1) control = isControl(arg.charCodeAt(i));
  if (control) {
    let body = '';
    for (const ch of arg) {
      const code = ch.charCodeAt(0);
      const name = CONTROL_NAMES[ch];
      if (name !== undefined) body += `\\${name}`;
      else if (isControl(code)) body += `\\${code.toString(8).padStart(3, '0')}`;
      else body += ch === "'" || ch === '\\' ? `\\${ch}` : ch;
    }
    return `$'${body}'`;
  }
  let out = '';
  for (let i = 0; i < arg.length; i += 1) {
    const ch = arg.charAt(i);
    const before = arg.charAt(i - 1);
    // `,` and `^` are escaped for brace expansion; `#` starts a comment and `~` expands only
    // at the start of a word (or after `=` / `:`).
    const special =
      ch === ',' ||
      ch === '^' ||
      (ch === '#' && i === 0) ||
      (ch === '~' && (i === 0 || before === '=' || before === ':'));
    const safe = ch.charCodeAt(0) > 127 || QUOTE_SAFE.test(ch);
    out += safe && !special ? ch : `\\${ch}`;
  }
  return out;
}

/** C's exponent form: at least two exponent digits (`1.5e+04`, not `1.5e+4`). */
function exponential(value: number, digits: number): string {
  return value.toExponential(digits).replace(/e([+-])(\d)$/, 'e$10$2');
}

/** The text of one conversion, `undefined` when it is not modelled. */
function convert(
  conversion: string,
  precision: number | undefined,
  arg: string,
): string | undefined {
  const digits = precision === undefined ? undefined : Math.min(precision, MAX_PAD);
  switch (conversion) {
    case 's':
      return digits === undefined ? arg : arg.slice(0, digits);
    case 'q':
      return shellQuote(arg);
    case 'c':
      return arg.charAt(0);
    case 'd':
    case 'i':
    case 'u':
      return String(Math.trunc(toInteger(arg)));
    case 'o':
      return Math.trunc(toInteger(arg)).toString(8);
    case 'x':
      return Math.trunc(toInteger(arg)).toString(16);
    case 'X':
      return Math.trunc(toInteger(arg)).toString(16).toUpperCase();
    case 'f':
    case 'F':
      return Number(arg || 0).toFixed(digits ?? 6);
    case 'e':
      return exponential(Number(arg || 0), digits ?? 6);
    case 'E':
      return exponential(Number(arg || 0), digits ?? 6).toUpperCase();
    default:
      return undefined;
  }
}

/**
 * What bash's `printf format args…` prints (the arguments from index `from` of `args`). The
 * format is reused while arguments remain (as long as it consumes some); missing arguments are
 * empty. `%b` decodes escapes, and its `\c` stops all
 * output. Output past twice the input (plus {@link MAX_PAD}) is cut and reported inexact, so a
 * short format reused over many arguments stays linear.
 */
export function printfOutput(format: string, args: readonly string[], from = 0): Printed {
  const parts = compile(format);
  const consumes = parts.some((part) => typeof part !== 'string');
  let out = '';
  let exact = true;
  let used = from;
  // Grows with each argument taken, so no pass over the arguments is needed up front.
  let limit = 2 * format.length + MAX_PAD;
  const take = (): string => {
    const arg = args[used] ?? '';
    used += 1;
    limit += 2 * arg.length + 2;
    return arg;
  };
  const count = (value: number | '*' | undefined): number | undefined =>
    value === '*' ? toInteger(take()) : value;
  do {
    for (const part of parts) {
      if (out.length > limit) return { text: out.slice(0, limit), exact: false };
      if (typeof part === 'string') {
        out += part;
        continue;
      }
      const width = count(part.width);
      const precision = count(part.precision);
      const arg = take();
      if (part.conversion === 'b') {
        const decoded = echoEscapes(arg);
        out += pad(decoded.text, part.flags, width);
        if (decoded.stop) return { text: out, exact };
        continue;
      }
      const text = convert(part.conversion, precision, arg);
      if (text === undefined) exact = false;
      else out += pad(text, part.flags, width);
    }
  } while (consumes && used < args.length);
  return { text: out, exact };
}
