/**
 * The commands `xargs` builds from input the line spells out: `echo 'rm -rf /' | xargs -0 sh -c`
 * runs `sh -c 'rm -rf /'`, and `echo / | xargs rm -rf` runs `rm -rf /`. Items are split as xargs
 * splits them (blanks and quotes by default, `-0`, `-d`, lines with `-I`), batched by `-n` /
 * `-L`, and appended to (or, with `-I`, substituted into) the command xargs runs.
 */
import type { SimpleCommand, Word } from '../shell/ast.js';
import { commandBasename, type Invocation } from '../shell/unwrap.js';
import type { Feed } from './feed.js';
import { plainWord } from './variables.js';

/** Most commands built, and items read, per input: past them the rest is not judged. */
const MAX_COMMANDS = 8;
const MAX_ITEMS = 256;

/** Options whose value is the next word. */
const VALUED = new Set(['-E', '-s', '-P', '--eof', '--max-chars', '--max-procs']);

/** How xargs reads its input and builds commands. */
interface XargsMode {
  /** The payload's first word, in the command's words. */
  readonly payload: number;
  /** `-0` / `-d`: items end at this character only. */
  readonly delimiter: string | undefined;
  /** `-I R`: one command per line, with R replaced in each argument. */
  readonly replace: string | undefined;
  /** `-n N` (items) or `-L N` (lines) per command; all in one when undefined. */
  readonly perCommand: number | undefined;
  readonly byLines: boolean;
}

/** The value of an option given as `-xV`, `-x V`, `--long=V` or `--long V`; its words used. */
function optionValue(
  words: readonly Word[],
  at: number,
  flag: string,
): { value: string; used: number } {
  const arg = (words[at] as Word).value;
  if (arg.startsWith('--')) {
    const eq = arg.indexOf('=');
    return eq >= 0
      ? { value: arg.slice(eq + 1), used: 1 }
      : { value: words[at + 1]?.value ?? '', used: 2 };
  }
  if (arg.length > flag.length) return { value: arg.slice(flag.length), used: 1 };
  return { value: words[at + 1]?.value ?? '', used: 2 };
}

function delimiterOf(spec: string): string {
  const escapes: Record<string, string> = { '\\n': '\n', '\\t': '\t', '\\0': '\0', '\\\\': '\\' };
  return escapes[spec] ?? spec.charAt(0);
}

/** Reads xargs's options after the word at `at`. */
function readMode(words: readonly Word[], at: number): XargsMode {
  let delimiter: string | undefined;
  let replace: string | undefined;
  let perCommand: number | undefined;
  let byLines = false;
  let i = at + 1;
  while (i < words.length) {
    const arg = (words[i] as Word).value;
    if (arg === '--') {
      i += 1;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    let used = 1;
    if (arg === '--null' || /^-[0rtx]*0[0rtx]*$/.test(arg)) delimiter = '\0';
    else if (arg.startsWith('-a') || arg.startsWith('--arg-file')) {
      used = optionValue(words, i, '-a').used;
    } else if (arg.startsWith('-d') || arg.startsWith('--delimiter')) {
      const read = optionValue(words, i, '-d');
      delimiter = delimiterOf(read.value);
      used = read.used;
    } else if (arg.startsWith('-I')) {
      const read = optionValue(words, i, '-I');
      replace = read.value;
      used = read.used;
    } else if (arg === '-i' || arg === '--replace') replace = '{}';
    else if (arg.startsWith('-i')) replace = arg.slice(2);
    else if (arg.startsWith('--replace=')) replace = arg.slice('--replace='.length);
    else if (/^(?:-[nLl]|--max-(?:args|lines))/.test(arg)) {
      byLines = !arg.startsWith('-n') && !arg.startsWith('--max-args');
      const bare = arg === '-l' || arg === '--max-lines';
      const read = bare ? { value: '1', used: 1 } : optionValue(words, i, arg.slice(0, 2));
      perCommand = Math.max(1, Number.parseInt(read.value, 10) || 1);
      used = read.used;
    } else if (VALUED.has(arg)) used = 2;
    i += used;
  }
  return { payload: i, delimiter, replace, perCommand, byLines };
}

/** xargs's default splitting: blanks and newlines separate items; quotes and `\` escape. */
function splitItems(text: string): { items: string[]; lineEnds: number[] } {
  const items: string[] = [];
  const lineEnds: number[] = [];
  let current = '';
  let started = false;
  let quote = '';
  for (let i = 0; i < text.length && items.length < MAX_ITEMS; i += 1) {
    const ch = text.charAt(i);
    if (quote !== '') {
      if (ch === quote) quote = '';
      else current += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      started = true;
    } else if (ch === '\\') {
      current += text.charAt(i + 1);
      started = true;
      i += 1;
    } else if (ch === ' ' || ch === '\t' || ch === '\n') {
      if (started) items.push(current);
      if (ch === '\n') lineEnds.push(items.length);
      current = '';
      started = false;
    } else {
      current += ch;
      started = true;
    }
  }
  if (started) items.push(current);
  return { items, lineEnds };
}

/** The argument groups, one per command xargs runs, for one input text. */
function batches(text: string, mode: XargsMode): string[][] {
  if (mode.replace !== undefined) {
    return text
      .split('\n')
      .map((line) => line.replace(/^[ \t]+/, ''))
      .filter((line) => line !== '')
      .map((line) => [line]);
  }
  let items: string[];
  let lineEnds: number[] = [];
  if (mode.delimiter !== undefined) {
    items = text.split(mode.delimiter).slice(0, MAX_ITEMS);
    if (items[items.length - 1] === '') items.pop();
  } else ({ items, lineEnds } = splitItems(text));
  if (mode.perCommand === undefined) return [items];
  const out: string[][] = [];
  if (!mode.byLines || mode.delimiter !== undefined) {
    for (let i = 0; i < items.length; i += mode.perCommand)
      out.push(items.slice(i, i + mode.perCommand));
    return out;
  }
  let from = 0;
  for (let line = mode.perCommand - 1; line < lineEnds.length; line += mode.perCommand) {
    out.push(items.slice(from, lineEnds[line]));
    from = lineEnds[line] as number;
  }
  if (from < items.length) out.push(items.slice(from));
  return out;
}

/** The index of the `xargs` word in `inv`'s words (it is one of its wrappers), or -1. */
function xargsAt(inv: Invocation): number {
  return inv.command.words.findIndex((w) => !w.dynamic && commandBasename(w.value) === 'xargs');
}

/** The file xargs reads its items from instead of standard input (`-a file`), if any. */
export function xargsInputFile(inv: Invocation): Word | undefined {
  const words = inv.command.words;
  const at = xargsAt(inv);
  for (let i = at + 1; at >= 0 && i < words.length; i += 1) {
    const arg = (words[i] as Word).value;
    if (!arg.startsWith('-') || arg === '--') return undefined;
    if (arg === '-a' || arg === '--arg-file') return words[i + 1];
    if (arg.startsWith('--arg-file=') || (arg.startsWith('-a') && arg.length > 2)) {
      const value = arg.slice(arg.startsWith('-a') ? 2 : '--arg-file='.length);
      return { raw: value, value, quoted: false, dynamic: false, subs: [] };
    }
  }
  return undefined;
}

/**
 * The commands `inv` (run through `xargs`) runs when it reads `stdin` (its standard input, or
 * its `-a` file), as simple commands to be judged like any other.
 */
export function xargsCommands(inv: Invocation, stdin: Feed): SimpleCommand[] {
  const words = inv.command.words;
  const at = xargsAt(inv);
  if (at < 0) return [];
  const mode = readMode(words, at);
  const payload = words.slice(mode.payload);
  if (payload.length === 0) payload.push(plainWord('echo'));
  const out: SimpleCommand[] = [];
  for (const text of stdin.texts) {
    for (const batch of batches(text, mode)) {
      if (out.length === MAX_COMMANDS) return out;
      const replace = mode.replace;
      const built =
        replace === undefined
          ? [...payload, ...batch.map((item) => plainWord(item))]
          : payload.map((word) => plainWord(word.value.replaceAll(replace, batch[0] ?? '')));
      out.push({ ...inv.command, words: built, assigns: [], redirects: [], stdinLink: undefined });
    }
  }
  return out;
}
