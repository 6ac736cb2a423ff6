/**
 * `chmod +x file` followed, later in the same script, by running that file: a script the model
 * wrote is about to run with no chance to read it first.
 */
import type { Invocation } from '../shell/unwrap.js';
import { carriedCode } from './carriers.js';
import { type Finding, payloadText, type Site } from './types.js';

const EXEC_MODE_SYMBOLIC = /[+=][rwst]*x/;
const EXEC_MODE_NUMERIC = /^[0-7]?[1357][0-7]{2}$/;
const CHMOD_FLAGS = /^-[cfvR]+$/;
const SHELL_LIKE = /^(?:sh|bash|zsh|dash|ksh|source|\.)$/;

function strip(path: string): string {
  return path.startsWith('./') ? path.slice(2) : path;
}

/**
 * Records files made executable by a `chmod` in `state.executable`, and adds `chmod_exec_run` when an
 * invocation runs one of them (directly or through a shell).
 */
export function chmodThenRun(
  site: Site,
  state: { executable: Set<string> | undefined },
  out: Finding[],
): void {
  const { inv } = site;
  if (inv.name === 'chmod') {
    const [mode, ...files] = inv.args.filter((a) => !CHMOD_FLAGS.test(a));
    if (mode !== undefined && (EXEC_MODE_SYMBOLIC.test(mode) || EXEC_MODE_NUMERIC.test(mode))) {
      state.executable ??= new Set();
      for (const file of files) state.executable.add(strip(file));
    }
    return;
  }
  const executable = state.executable;
  if (executable === undefined || executable.size === 0) return;
  if (inv.path !== '' && runsExecutable(inv, executable)) {
    out.push({
      key: 'chmod_exec_run',
      reason: 'chmod +x followed by running the file',
      payload: payloadText(inv),
    });
  }
}

function runsExecutable(inv: Invocation, executable: Set<string>): boolean {
  if (executable.has(strip(inv.path))) return true;
  const first = inv.args.find((a) => !a.startsWith('-'));
  return (
    carriedCode(inv) === undefined &&
    first !== undefined &&
    executable.has(strip(first)) &&
    SHELL_LIKE.test(inv.name)
  );
}
