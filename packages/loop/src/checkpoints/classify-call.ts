/**
 * Which tool calls change files, so a checkpoint is taken before them. Conservative on purpose:
 * a terminal command counts as read-only only when every command in it (substitutions included)
 * is a known reader and nothing is redirected into a file; anything else counts as writing.
 */
import { parseShell, type Script, type SimpleCommand, type Word } from '@hermes/approval';

/** Tools that always change files. */
const WRITING_TOOLS: ReadonlySet<string> = new Set(['write_file', 'patch', 'execute_code']);

/** Commands that only read (with the argument checks below). */
const READERS: ReadonlySet<string> = new Set([
  'ls',
  'cat',
  'pwd',
  'echo',
  'printf',
  'head',
  'tail',
  'wc',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'which',
  'whoami',
  'date',
  'printenv',
  'stat',
  'file',
  'du',
  'df',
  'tree',
  'diff',
  'cmp',
  'cut',
  'tr',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'true',
  'false',
  'test',
  '[',
  'uname',
  'id',
  'hostname',
  'ps',
  'sha256sum',
  'sha1sum',
  'md5sum',
  'jq',
  'cd',
  'type',
  'nl',
  'find',
  'sort',
  'git',
]);

/** `git` subcommands that only read. */
const GIT_READERS: ReadonlySet<string> = new Set([
  'status',
  'log',
  'diff',
  'show',
  'rev-parse',
  'ls-files',
  'blame',
  'grep',
  'describe',
]);

/** `find` actions that write or run something. */
const FIND_WRITERS = /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/;

/** Output redirections: anything that may create or change a file. */
const OUTPUT_OPS: ReadonlySet<string> = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);

/** Whether a call to `toolName` with `args` may change files in the working directory. */
export function isFileChangingCall(
  toolName: string,
  args: Readonly<Record<string, unknown>>,
): boolean {
  if (WRITING_TOOLS.has(toolName)) return true;
  if (toolName !== 'terminal') return false;
  const command = args.command;
  if (typeof command !== 'string') return true;
  return !isReadOnlyCommand(command);
}

/** True only when the whole command line is clearly read-only. */
export function isReadOnlyCommand(command: string): boolean {
  return scriptReadsOnly(parseShell(command));
}

function scriptReadsOnly(script: Script): boolean {
  if (script.tooDeep) return false;
  return script.commands.every(commandReadsOnly);
}

function commandReadsOnly(command: SimpleCommand): boolean {
  if (!command.redirects.every(redirectReadsOnly)) return false;
  if (![...command.words, ...command.assigns].every(wordReadsOnly)) return false;
  const [name, ...rest] = command.words;
  if (!name) return true; // only assignments
  if (name.dynamic) return false;
  const program = name.value.slice(name.value.lastIndexOf('/') + 1);
  if (!READERS.has(program)) return false;
  const args = rest.map((word) => word.value);
  if (program === 'find') return !args.some((arg) => FIND_WRITERS.test(arg));
  if (program === 'sort') return !args.some((arg) => arg === '-o' || arg.startsWith('--output'));
  if (program === 'git') return gitReadsOnly(args);
  return true;
}

function gitReadsOnly(args: readonly string[]): boolean {
  const sub = args.find((arg) => !arg.startsWith('-'));
  // Options before the subcommand (`-C dir`, `-c k=v`) could point anywhere: not clearly read-only.
  if (sub === undefined || args[0] !== sub) return false;
  if (args.some((arg) => arg === '--output' || arg.startsWith('--output='))) return false;
  return GIT_READERS.has(sub);
}

function wordReadsOnly(word: Word): boolean {
  return word.subs.every((sub) => sub.kind === 'command' && scriptReadsOnly(sub.script));
}

function redirectReadsOnly(redirect: SimpleCommand['redirects'][number]): boolean {
  if (redirect.heredoc && !redirect.heredoc.subs.every((sub) => scriptReadsOnly(sub.script))) {
    return false;
  }
  if (!OUTPUT_OPS.has(redirect.op)) return true;
  const target = redirect.target;
  if (!target || target.dynamic) return false;
  // `2>&1`, `>&2`: a descriptor, not a file; `/dev/null` discards.
  if (redirect.op === '>&' && /^\d+-?$/.test(target.value)) return true;
  return target.value === '/dev/null';
}
