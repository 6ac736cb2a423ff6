/**
 * Peels command wrappers (`sudo`, `env`, `exec`, `nohup`, `time`, `timeout`, `command`,
 * `builtin`, `xargs`, `nice`, …, and binaries named by absolute path such as `/usr/bin/sudo`) off
 * a simple command, so each rule judges the payload the wrapper runs and never the wrapper.
 */
import type { SimpleCommand, Word } from './ast.js';

/** One wrapper that was peeled off, with the options it was given. */
export interface WrapperUse {
  readonly name: string;
  readonly options: readonly string[];
}

/** A simple command with its wrappers peeled off. */
export interface Invocation {
  /** The payload's command name: basename, lower-cased (`/bin/RM` → `rm`). Empty if none. */
  readonly name: string;
  /** The payload command word as written (after de-obfuscation), e.g. `./deploy.sh`. */
  readonly path: string;
  /** The payload's arguments, de-obfuscated. */
  readonly args: readonly string[];
  /** The payload's argument words. */
  readonly argWords: readonly Word[];
  /** Whether the payload command word contains an expansion (`$X`, `$(…)`). */
  readonly dynamicName: boolean;
  readonly wrappers: readonly WrapperUse[];
  /** `VAR=value` words given to the payload (prefix assignments and `env` assignments). */
  readonly envAssigns: readonly string[];
  readonly command: SimpleCommand;
  /**
   * Text the wrapper hands to a word-splitting carrier (`env -S 'rm -rf /'`); the caller parses it
   * as a command line of its own.
   */
  readonly carriedText?: string;
}

/** For each wrapper: options that take a separate value, and whether a positional comes first. */
interface WrapperSpec {
  readonly valued: ReadonlySet<string>;
  /** Positional arguments consumed before the payload (`timeout 5 cmd`, `chroot /x cmd`). */
  readonly positionals?: number;
  /** Options after which nothing is run (`command -v rm` only looks the name up). */
  readonly noExec?: ReadonlySet<string>;
}

const spec = (valued: string[], extra: Partial<WrapperSpec> = {}): WrapperSpec => ({
  valued: new Set(valued),
  ...extra,
});

const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map([
  [
    'sudo',
    spec([
      '-u',
      '-g',
      '-p',
      '-C',
      '-D',
      '-h',
      '-r',
      '-t',
      '-T',
      '-U',
      '-R',
      '--user',
      '--group',
      '--prompt',
      '--chdir',
      '--host',
      '--role',
      '--type',
      '--close-from',
      '--other-user',
      '--chroot',
    ]),
  ],
  ['doas', spec(['-u', '-C'])],
  ['pkexec', spec(['--user'])],
  ['env', spec(['-u', '-C', '-P', '--unset', '--chdir'])],
  ['exec', spec(['-a'])],
  ['nohup', spec([])],
  ['time', spec(['-f', '-o', '--format', '--output'])],
  ['timeout', spec(['-s', '-k', '--signal', '--kill-after'], { positionals: 1 })],
  ['command', spec([], { noExec: new Set(['-v', '-V']) })],
  ['builtin', spec([])],
  [
    'xargs',
    spec([
      '-I',
      '-L',
      '-n',
      '-P',
      '-d',
      '-E',
      '-s',
      '-a',
      '--arg-file',
      '--delimiter',
      '--max-args',
      '--max-procs',
      '--max-lines',
      '--replace',
      '--eof',
      '--max-chars',
    ]),
  ],
  ['nice', spec(['-n', '--adjustment'])],
  ['ionice', spec(['-c', '-n', '-p', '--class', '--classdata'])],
  ['stdbuf', spec(['-i', '-o', '-e', '--input', '--output', '--error'])],
  ['setsid', spec([])],
  ['chroot', spec(['--userspec', '--groups'], { positionals: 1 })],
  ['unbuffer', spec([])],
  ['caffeinate', spec(['-t', '-w'])],
  ['busybox', spec([])],
  ['then', spec([])],
  ['do', spec([])],
]);

const NO_WRAPPERS: readonly WrapperUse[] = [];
const NO_STRINGS: readonly string[] = [];
const NO_WORDS: readonly Word[] = [];

/** Returned by skipWrapperArgs when `env -S` carries a command line as one string. */
const SPLIT_STRING = -2;

const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Longest basename compared with rule names; every name a rule knows is far shorter. A longer
 * basename (often a whole `$(…)` head word) is returned as {@link LONG_NAME}, which keeps each
 * call O(1) on huge words and gives the name lookups one short string to hash.
 */
const MAX_NAME = 64;

/** The name of a command whose basename is longer than any name a rule knows. */
export const LONG_NAME = '(long name)';

/** The lower-cased basename of a command word (`/usr/bin/sudo` → `sudo`). */
export function commandBasename(word: string): string {
  const stop = Math.max(0, word.length - MAX_NAME - 1);
  let start = word.length;
  let lower = true;
  while (start > stop) {
    const code = word.charCodeAt(start - 1);
    if (code === 47) break;
    if ((code >= 65 && code <= 90) || code > 127) lower = false;
    start -= 1;
  }
  // Most names are already lower-case ASCII: no copy is made for them.
  if (word.length - start > MAX_NAME) return LONG_NAME;
  const name = start === 0 ? word : word.slice(start);
  return lower ? name : name.toLowerCase();
}

/** Skips one wrapper's options and returns the index of its payload (or -1 when none runs). */
function skipWrapperArgs(
  name: string,
  words: readonly Word[],
  from: number,
  options: string[],
  envAssigns: string[],
): number {
  const wrapper = WRAPPERS.get(name) as WrapperSpec;
  let i = from;
  let positionals = wrapper.positionals ?? 0;
  while (i < words.length) {
    const value = (words[i] as Word).value;
    if (value === '--') return i + 1;
    if (name === 'env' && ENV_ASSIGNMENT.test(value)) {
      envAssigns.push(value);
    } else if (value.startsWith('-') && value.length > 1) {
      if (wrapper.noExec?.has(value)) return -1;
      options.push(value);
      const flag = value.includes('=') ? value.slice(0, value.indexOf('=')) : value;
      if (name === 'env' && (flag === '-S' || flag === '--split-string' || /^-S./.test(flag))) {
        return SPLIT_STRING;
      }
      if (wrapper.valued.has(flag) && !value.includes('=')) i += 1;
    } else if (positionals > 0) {
      positionals -= 1;
    } else return i;
    i += 1;
  }
  return i;
}

/**
 * Peels every wrapper off `command` and returns the payload. `env -S 'cmd args'` and the shell
 * carriers (`sh -c`, `eval`, …) are not peeled here: they carry text that is parsed again.
 */
export function unwrapCommand(command: SimpleCommand): Invocation {
  const words = command.words;
  // Allocated only for a command that has wrappers or assignments: most have neither.
  let wrappers: WrapperUse[] | undefined;
  let envAssigns = command.assigns.length > 0 ? command.assigns.map((w) => w.value) : undefined;
  let index = 0;
  // The basename of words[index], kept so the payload's name is not computed twice.
  let name = '';
  while (index < words.length) {
    const word = words[index] as Word;
    name = commandBasename(word.value);
    if (!WRAPPERS.has(name) || word.dynamic) break;
    const options: string[] = [];
    wrappers ??= [];
    envAssigns ??= [];
    const next = skipWrapperArgs(name, words, index + 1, options, envAssigns);
    wrappers.push({ name, options });
    if (next === SPLIT_STRING) return splitStringInvocation(command, index, wrappers, envAssigns);
    if (next < 0) {
      index = words.length;
      break;
    }
    index = next;
  }
  const head = words[index];
  // Most commands in a long line have no arguments: they share one empty list.
  const rest = index + 1 < words.length ? words.slice(index + 1) : NO_WORDS;
  return {
    name: head ? name : '',
    path: head?.value ?? '',
    args: rest.length > 0 ? rest.map((word) => word.value) : NO_STRINGS,
    argWords: rest,
    dynamicName: head?.dynamic ?? false,
    wrappers: wrappers ?? NO_WRAPPERS,
    envAssigns: envAssigns ?? NO_STRINGS,
    command,
  };
}

/** `env [opts] -S 'text' args…`: everything from the split string on is a command line. */
function splitStringInvocation(
  command: SimpleCommand,
  envIndex: number,
  wrappers: WrapperUse[],
  envAssigns: string[],
): Invocation {
  const words = command.words.slice(envIndex + 1);
  const at = words.findIndex((w) => /^(?:-S|--split-string)/.test(w.value));
  const flag = (words[at] as Word).value;
  const inline = flag.startsWith('--split-string=')
    ? flag.slice('--split-string='.length)
    : flag.length > 2 && flag.startsWith('-S')
      ? flag.slice(2)
      : undefined;
  const tail = words.slice(at + (inline === undefined ? 1 : 2)).map((w) => w.raw);
  const first = inline ?? words[at + 1]?.value ?? '';
  return {
    name: 'env',
    path: 'env',
    args: [],
    argWords: [],
    dynamicName: false,
    wrappers,
    envAssigns,
    command,
    carriedText: [first, ...tail].join(' '),
  };
}
