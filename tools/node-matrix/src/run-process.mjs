// @ts-check
/**
 * Runs a child process to completion with its output captured: the one way every step of the
 * matrix (npm, node-gyp, the built `hermes`) is started, so each has a backstop timeout and its
 * output can be shown when it fails.
 */
import { spawn } from 'node:child_process';

/**
 * @typedef {{
 *   cwd?: string,
 *   env?: NodeJS.ProcessEnv,
 *   timeoutMs?: number,
 * }} RunOptions
 * @typedef {{
 *   code: number | null,
 *   signal: NodeJS.Signals | null,
 *   stdout: string,
 *   stderr: string,
 *   timedOut: boolean,
 *   ms: number,
 * }} RunResult
 */

/** A hung child (a server that never answers, a compiler gone wrong) must not hang CI. */
const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * Runs `command ...args` with stdin closed and stdout/stderr captured as UTF-8 text. Never
 * rejects for a non-zero exit: the caller judges the result. Rejects only when the command
 * cannot be started at all (for example, it does not exist).
 * @param {string} command
 * @param {readonly string[]} args
 * @param {RunOptions} [options]
 * @returns {Promise<RunResult>}
 */
export function runProcess(command, args, options = {}) {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut, ms: performance.now() - started });
    });
  });
}

/**
 * One line saying how a run ended, for failure messages.
 * @param {RunResult} result
 * @returns {string}
 */
export function describeExit(result) {
  if (result.timedOut) return `timed out after ${Math.round(result.ms / 1000)} s`;
  if (result.signal) return `killed by ${result.signal}`;
  return `exit ${result.code}`;
}

/**
 * The last `lines` lines of a run's output, indented, for showing under a failure.
 * @param {RunResult} result
 * @param {number} [lines]
 * @returns {string}
 */
export function outputTail(result, lines = 20) {
  const text = `${result.stdout}${result.stderr ? `\n${result.stderr}` : ''}`.trimEnd();
  return text
    .split('\n')
    .slice(-lines)
    .map((line) => `    | ${line}`)
    .join('\n');
}
