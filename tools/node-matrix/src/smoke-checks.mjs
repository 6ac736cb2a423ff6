// @ts-check
/**
 * The end-to-end smoke of a built `hermes` CLI, run by one Node: `--version`, the scripted
 * `demo`, `chat -q` against a local testkit server (its session then found again through SQLite
 * full-text search in a fresh process), one real tool call, `search_files`, and the gateway
 * serving one chat completion (`gateway-check.mjs`). Everything the
 * native addon does (open the session database, write, search) is exercised.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { script, startScriptedServer } from '../../../packages/testkit/dist/index.js';
import { gatewayServes } from './gateway-check.mjs';
import { describeExit, outputTail, runProcess } from './run-process.mjs';

/**
 * @typedef {{ name: string, ok: boolean, detail: string }} CheckResult
 * @typedef {{ node: string, cliDir: string, scratch: string }} SmokeTarget
 *   `node` runs `<cliDir>/dist/bin.js`; temporary homes and working folders go under `scratch`.
 * @typedef {(target: SmokeTarget) => Promise<string | undefined>} Check
 *   Resolves to undefined when the check passes, else to what went wrong.
 */

/** A word no other message contains, so the search finds exactly the smoke's session. */
const NEEDLE = 'nodematrixneedle';
const ANSWER = 'The needle is on line 2 of haystack.txt.';

/**
 * Runs `hermes ...args` with its own fresh data home (so `~/.hermes` is never touched).
 * @param {SmokeTarget} target
 * @param {readonly string[]} args
 * @param {{ home?: string, cwd?: string }} [where]
 */
function hermes(target, args, where = {}) {
  const home = where.home ?? mkdtempSync(join(target.scratch, 'home-'));
  const cwd = where.cwd ?? mkdtempSync(join(target.scratch, 'work-'));
  const env = { ...process.env, HERMES_HOME: home, NO_COLOR: '1' };
  return runProcess(target.node, [join(target.cliDir, 'dist', 'bin.js'), ...args], { cwd, env });
}

/** @type {Check} */
async function version(target) {
  const { version: expected } = JSON.parse(
    readFileSync(join(target.cliDir, 'package.json'), 'utf8'),
  );
  const run = await hermes(target, ['--version']);
  if (run.code === 0 && run.stdout === `hermes ${expected}\n`) return undefined;
  return `expected 'hermes ${expected}', exit 0; got ${describeExit(run)}\n${outputTail(run)}`;
}

/** @type {Check} */
async function demo(target) {
  const run = await hermes(target, ['demo']);
  const expected = [
    'a SCRIPTED conversation',
    '✍️ write_file  haiku.txt',
    'That is 15 words',
    'end of the scripted demo',
  ];
  const missing = expected.filter((text) => !run.stdout.includes(text));
  if (!/saved as session [0-9a-f-]{36}/.test(run.stdout)) missing.push('saved as session <id>');
  if (run.code === 0 && missing.length === 0) return undefined;
  return `${describeExit(run)}; missing: ${missing.map((m) => `'${m}'`).join(', ') || 'none'}\n${outputTail(run)}`;
}

/**
 * Starts a testkit server playing `turns`, writes a data home whose config.yaml points at it
 * and a working folder holding haystack.txt, runs `hermes chat -q question --quiet` there, and
 * hands the outcome to `judge`; the server is closed whatever happens.
 * @param {SmokeTarget} target
 * @param {import('../../../packages/testkit/dist/index.js').ScriptBuilder} turns
 * @param {(run: import('./run-process.mjs').RunResult,
 *   requests: readonly import('../../../packages/testkit/dist/index.js').RecordedRequest[],
 *   home: string) => Promise<string | undefined>} judge
 * @returns {Promise<string | undefined>}
 */
async function chatAgainstTestkit(target, turns, judge) {
  const server = await startScriptedServer(turns);
  try {
    const home = mkdtempSync(join(target.scratch, 'home-'));
    const cwd = mkdtempSync(join(target.scratch, 'work-'));
    writeFileSync(join(cwd, 'haystack.txt'), `hay\n${NEEDLE} here\nhay\n`);
    writeFileSync(
      join(home, 'config.yaml'),
      `model:\n  provider: openai\n  default: scripted-model\n  base_url: ${server.url}/v1\n`,
    );
    const question = `where is the ${NEEDLE}?`;
    const run = await hermes(target, ['chat', '-q', question, '--quiet'], { home, cwd });
    const calls = server.requests.filter((r) => r.path === '/v1/chat/completions');
    return await judge(run, calls, home);
  } finally {
    await server.close();
  }
}

/** @type {Check} */
function chatQuery(target) {
  return chatAgainstTestkit(target, script().text(ANSWER), async (run, calls, home) => {
    /** @type {string[]} */
    const problems = [];
    if (run.code !== 0) problems.push(describeExit(run));
    if (run.stdout !== `${ANSWER}\n`) problems.push(`stdout was ${JSON.stringify(run.stdout)}`);
    if (calls.length !== 1) problems.push(`the server saw ${calls.length} model requests, not 1`);
    else if (!JSON.stringify(calls[0]?.body).includes(`where is the ${NEEDLE}?`)) {
      problems.push('the request did not carry the question');
    }
    if (!existsSync(join(home, 'state.db'))) problems.push('no state.db in the data home');
    if (problems.length > 0) return `${problems.join('; ')}\n${outputTail(run)}`;
    return sessionSearch(target, home);
  });
}

/**
 * The first tool message in an OpenAI Chat Completions request body, if any.
 * @param {unknown} body
 * @returns {string | undefined}
 */
function toolMessage(body) {
  const { messages } = /** @type {{ messages?: { role?: unknown, content?: unknown }[] }} */ (
    body ?? {}
  );
  const content = messages?.find((m) => m.role === 'tool')?.content;
  return typeof content === 'string' ? content : undefined;
}

/**
 * `search_files` with its defaults, as a model calls it: the ripgrep backend when `rg` is on
 * PATH (CI installs it), else the built-in walker. The match must reach the model.
 * @type {Check}
 */
function searchFiles(target) {
  const turns = script().toolCall('search_files', { pattern: NEEDLE }).text(ANSWER);
  return chatAgainstTestkit(target, turns, async (run, calls) => {
    const tool = toolMessage(calls[1]?.body);
    const found = tool?.includes('haystack.txt') && tool.includes(`${NEEDLE} here`);
    if (run.code === 0 && calls.length === 2 && found) return undefined;
    return (
      `${describeExit(run)}, ${calls.length} model requests; the tool result was ` +
      `${tool === undefined ? 'missing' : JSON.stringify(tool)}, not haystack.txt's line 2\n` +
      outputTail(run)
    );
  });
}

/**
 * The session `chat -q` saved, found again by SQLite full-text search (FTS5) in a new process.
 * @param {SmokeTarget} target
 * @param {string} home
 * @returns {Promise<string | undefined>}
 */
async function sessionSearch(target, home) {
  const run = await hermes(target, ['sessions', 'search', NEEDLE, '--json'], { home });
  /** @type {unknown} */
  let hits;
  try {
    hits = JSON.parse(run.stdout);
  } catch {
    hits = undefined;
  }
  if (run.code === 0 && Array.isArray(hits) && hits.length > 0) return undefined;
  return `'sessions search ${NEEDLE}' found nothing (${describeExit(run)})\n${outputTail(run)}`;
}

/** The checks, in order; a name is printed beside each result. */
export const CHECKS = /** @type {const} */ ([
  ['hermes --version', version],
  ['hermes demo', demo],
  ['hermes chat -q (testkit server) + sessions search', chatQuery],
  ['search_files via chat -q (ripgrep when on PATH)', searchFiles],
  // `hermes gateway run` is `hermes-gateway run` (one function in @hermes/runtime), so the
  // staged CLI and its addon serve the gateway's smoke too.
  ['hermes gateway run: one chat completion, SIGTERM → exit 0', gatewayServes],
]);

/**
 * Runs the checks (all, or those named in `only`) against `cliDir` with `node`, reporting each
 * result as it comes.
 * @param {{ node: string, cliDir: string, only?: readonly string[] }} options
 * @param {(result: CheckResult) => void} [report]
 * @returns {Promise<CheckResult[]>}
 */
export async function runSmoke(options, report = () => {}) {
  const scratch = mkdtempSync(join(tmpdir(), 'hermes-node-matrix-smoke-'));
  const target = { node: options.node, cliDir: options.cliDir, scratch };
  const selected = CHECKS.filter(([name]) => !options.only || options.only.includes(name));
  /** @type {CheckResult[]} */
  const results = [];
  try {
    for (const [name, check] of selected) {
      let detail;
      try {
        detail = await check(target);
      } catch (error) {
        detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
      }
      const result = { name, ok: detail === undefined, detail: detail ?? '' };
      results.push(result);
      report(result);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return results;
}
