/**
 * What one command reads and prints, when the line itself says: `echo` and `printf` print their
 * arguments, `cat` its input or the files written earlier in the line, `tee` passes its input
 * on; any other command that reads known text prints text computed from it. The analyser keeps
 * a command's output on its pipeline, for a shell downstream, and in the written files for its
 * redirections.
 */
import type { Redirect, Script, SimpleCommand, Word } from '../shell/ast.js';
import { type Invocation, unwrapCommand } from '../shell/unwrap.js';
import {
  COMPUTED_FEED,
  carriesText,
  concatFeeds,
  EMPTY_FEED,
  type Feed,
  feedOfWords,
  heredocFeed,
  hereStringFeed,
} from './feed.js';
import { echoOutput, printfOutput } from './printf.js';
import type { FileScope, WrittenFiles } from './written-files.js';

/** Output redirection operators, and whether they append. */
const OUTPUT_OPS: ReadonlyMap<string, boolean> = new Map([
  ['>', false],
  ['>|', false],
  ['&>', false],
  ['>&', false],
  ['>>', true],
  ['&>>', true],
]);

const DESCRIPTOR = /^(?:\d+|-)$/;

const GREP_CHANGES = /^-(?:[a-zA-Z]*[oncbHlLZzTu]|-(?:only|count|line|byte|with-file|files))/;

/**
 * Commands that print some of the lines they read, whole and unchanged, and the options that
 * make them print something else: a part of a line (`grep -o`, `head -c`), or a line with
 * something added (`grep -n`, `uniq -c`).
 */
const LINE_FILTERS: ReadonlyMap<string, RegExp | undefined> = new Map([
  ['head', /^-(?:[a-z]*c|-bytes)/],
  ['tail', /^-(?:[a-z]*c|-bytes)/],
  ['sort', undefined],
  ['tac', undefined],
  ['uniq', /^-(?:[a-z]*c|-count)/],
  ['shuf', /^-(?:[a-z]*[ei]|-echo|-input-range)/],
  ['grep', GREP_CHANGES],
  ['egrep', GREP_CHANGES],
  ['fgrep', GREP_CHANGES],
]);

/** Whether `inv` prints only whole lines of what it reads (see {@link LINE_FILTERS}). */
function keepsLines(inv: Invocation): boolean {
  if (!LINE_FILTERS.has(inv.name)) return false;
  const changes = LINE_FILTERS.get(inv.name);
  return changes === undefined || !inv.args.some((arg) => changes.test(arg));
}

/** Commands that print nothing on standard output, whatever they read (`read` takes a line). */
const SILENT: ReadonlySet<string> = new Set([
  'true',
  'false',
  ':',
  'read',
  'cd',
  'unset',
  'shift',
  'exit',
  'return',
  'test',
  '[',
  'sleep',
]);

/**
 * The file a redirection sends standard output to, and whether it appends; `undefined` for
 * input redirections, other descriptors (`2>err`) and duplications (`>&2`).
 */
export function stdoutFile(redirect: Redirect): { target: Word; append: boolean } | undefined {
  const append = OUTPUT_OPS.get(redirect.op);
  const target = redirect.target;
  if (append === undefined || target === undefined) return undefined;
  const both = redirect.op.startsWith('&');
  if (!both && redirect.fd !== undefined && redirect.fd !== 1) return undefined;
  if (redirect.op === '>&' && DESCRIPTOR.test(target.value)) return undefined;
  return { target, append };
}

/** Whether `inv`'s standard output goes somewhere other than its pipe (a file, `>&2`). */
export function stdoutLeaves(inv: Invocation): boolean {
  for (const redirect of inv.command.redirects) {
    const file = stdoutFile(redirect);
    if (file !== undefined) {
      const path = file.target.value;
      if (path !== '/dev/stdout' && path !== '/dev/fd/1') return true;
    } else if (redirect.op === '>&' && (redirect.fd ?? 1) === 1) {
      if (redirect.target?.value !== '1') return true;
    }
  }
  return false;
}

/** What one input redirection gives the command, when the line knows. */
function redirectInput(
  redirect: Redirect,
  files: WrittenFiles,
  scope: FileScope,
): Feed | undefined {
  if (redirect.fd !== undefined && redirect.fd !== 0) return undefined;
  if (redirect.heredoc !== undefined) return heredocFeed(redirect.heredoc);
  if (redirect.target === undefined) return undefined;
  if (redirect.op === '<<<') return hereStringFeed(redirect.target);
  if (redirect.op === '<' || redirect.op === '<>')
    return fileContent(redirect.target, files, scope);
  return undefined;
}

/**
 * Every text that reaches `inv` on standard input: what its pipe brings and what each input
 * redirection gives. The shell uses only the last of them, but judging each is never less safe.
 */
export function inputsOf(
  inv: Invocation,
  piped: Feed | undefined,
  files: WrittenFiles,
  scope: FileScope,
): Feed[] {
  const inputs: Feed[] = [];
  if (piped !== undefined) inputs.push(piped);
  for (const redirect of inv.command.redirects) {
    const input = redirectInput(redirect, files, scope);
    if (input !== undefined) inputs.push(input);
  }
  return inputs;
}

/** The standard input `inv` reads: its last input redirection, else its pipe. */
function stdinOf(
  inv: Invocation,
  piped: Feed | undefined,
  files: WrittenFiles,
  scope: FileScope,
): Feed | undefined {
  let input = piped;
  for (const redirect of inv.command.redirects) {
    if (redirect.op.startsWith('<') && (redirect.fd ?? 0) === 0) {
      input = redirectInput(redirect, files, scope);
    }
  }
  return input;
}

/** `printf [-v var] [--] format args…`. */
function printfFeed(inv: Invocation): Feed | undefined {
  let first = 0;
  if (inv.args[0] === '-v') return EMPTY_FEED; // into a variable, not stdout
  if (inv.args[0] === '--') first = 1;
  const format = inv.args[first];
  if (format === undefined) return EMPTY_FEED;
  const printed = printfOutput(format, inv.args, first + 1);
  return feedOfWords(printed.text, inv.argWords, printed.exact);
}

/** `cat [-u] [files…]`: the files (or `-`, standard input) one after the other. */
function catFeed(
  inv: Invocation,
  stdin: Feed | undefined,
  files: WrittenFiles,
  scope: FileScope,
): Feed | undefined {
  let parts: Feed | undefined = EMPTY_FEED;
  let operands = 0;
  let transform = false;
  let options = true;
  for (let i = 0; i < inv.args.length; i += 1) {
    const arg = inv.args[i] as string;
    if (options && arg === '--') options = false;
    else if (options && arg.startsWith('-') && arg !== '-') transform ||= arg !== '-u';
    else {
      operands += 1;
      const part = arg === '-' ? stdin : fileContent(inv.argWords[i] as Word, files, scope);
      // One unknown part makes the whole unknown: stop reading.
      if (part === undefined) return undefined;
      parts = concatFeeds(parts, part);
    }
  }
  const read = operands === 0 ? stdin : parts;
  // `cat -n` and friends rewrite what they read.
  if (transform) return carriesText(read) ? COMPUTED_FEED : undefined;
  return read;
}

/**
 * What `inv` prints on standard output, before its redirections, given what its pipe brings
 * (`piped`). `undefined` when the line does not say (a program's own output, an unknown file).
 */
export function stdoutOf(
  inv: Invocation,
  piped: Feed | undefined,
  files: WrittenFiles,
  scope: FileScope,
): Feed | undefined {
  const name = inv.name;
  const xargs = inv.wrappers.length > 0 && inv.wrappers.some((w) => w.name === 'xargs');
  if (!xargs && name === 'echo') return feedOfWords(echoOutput(inv.args), inv.argWords);
  if (!xargs && name === 'printf') return printfFeed(inv);
  // `yes` repeats one line: the commands in it are those of one copy.
  if (!xargs && name === 'yes') return feedOfWords(`${inv.args.join(' ') || 'y'}\n`, inv.argWords);
  // A command with no words stands for the redirections of a group (`{ …; } > f`): it passes
  // on what the group printed, which reaches it as its input; alone, `< x` prints x (`$(<x)`).
  if (inv.command.words.length === 0) {
    if (piped !== undefined || inv.command.redirects.length !== 1) return piped;
    return stdinOf(inv, undefined, files, scope);
  }
  // Most commands read nothing the line knows: what they print is unknown.
  const redirects = inv.command.redirects.length;
  if (piped === undefined && redirects === 0 && name !== 'cat') return undefined;
  const stdin = stdinOf(inv, piped, files, scope);
  if (xargs) return carriesText(stdin) ? COMPUTED_FEED : undefined;
  if (name === 'cat') return catFeed(inv, stdin, files, scope);
  if (name === 'tee') return stdin;
  if (SILENT.has(name)) return EMPTY_FEED;
  if (!carriesText(stdin)) return undefined;
  // A line filter prints some of the lines it reads, maybe reordered: its input, judged whole,
  // holds every command it can print; which ones it prints is computed at run time.
  if (keepsLines(inv)) return stdin.dynamic ? stdin : { ...stdin, dynamic: true };
  return COMPUTED_FEED;
}

/** Substitutions with more commands than this are not evaluated. */
const MAX_STATIC_COMMANDS = 8;
/** The commands a substitution may be made of for its output to be known (no wrappers). */
const PRINTERS: ReadonlySet<string> = new Set(['echo', 'printf', 'cat', 'tee', 'true', ':']);

/** Whether `command` is one whose output may be known: a printer, or `< file` (`$(<x)`). */
function printsKnown(command: SimpleCommand): boolean {
  const first = command.words[0];
  if (first !== undefined) return PRINTERS.has(first.value);
  return command.redirects.length > 0 && command.redirects.every((r) => r.op === '<');
}

/**
 * What a substitution's script prints when every command of it is one whose output the line
 * knows (`$(echo rm)`, `<(printf '%s' x | cat)`, `$(<x)` of a file written earlier);
 * `undefined` otherwise. Parts computed at run time make it dynamic.
 */
export function scriptOutput(
  script: Script,
  files: WrittenFiles,
  scope: FileScope,
): Feed | undefined {
  if (script.commands.length > MAX_STATIC_COMMANDS) return undefined;
  // A cheap look first: most substitutions run some program, whose output is not known.
  for (const command of script.commands) if (!printsKnown(command)) return undefined;
  let out: Feed = EMPTY_FEED;
  let pending: Feed | undefined;
  for (const command of script.commands) {
    if (command.assigns.length > 0) return undefined;
    const inv = unwrapCommand(command);
    const feed = stdoutOf(inv, command.pipeIndex > 0 ? pending : undefined, files, scope);
    if (command.pipeIndex === 0 && pending !== undefined) out = concatFeeds(out, pending);
    pending = stdoutLeaves(inv) ? EMPTY_FEED : feed;
    if (pending === undefined) return undefined;
  }
  return pending === undefined ? out : concatFeeds(out, pending);
}

/**
 * The exact text a command substitution prints, when it is spelled out in full (no expansion in
 * it) and known; `undefined` otherwise. The caller strips trailing newlines, as the shell does.
 */
export function staticOutput(
  script: Script,
  files: WrittenFiles,
  scope: FileScope,
): string | undefined {
  for (const command of script.commands) {
    if (command.words.some((word) => word.dynamic)) return undefined;
  }
  const feed = scriptOutput(script, files, scope);
  if (feed === undefined || feed.dynamic || feed.texts.length !== 1) return undefined;
  return feed.texts[0];
}

/**
 * What reading the file `word` names gives: a file written earlier in the line, or a process
 * substitution whose output is known (`bash <(echo …)`, `sh < <(printf …)`).
 */
export function fileContent(word: Word, files: WrittenFiles, scope: FileScope): Feed | undefined {
  const sub = word.subs.length === 1 ? word.subs[0] : undefined;
  if (sub !== undefined) {
    const whole = sub.kind === 'process' && word.raw === `<(${sub.script.source})`;
    return whole ? scriptOutput(sub.script, files, scope) : undefined;
  }
  return files.read(word, scope);
}
