// @ts-check
/**
 * The gateway's smoke: `hermes gateway run` (the same server as `hermes-gateway run`) started
 * with the API server on a free port against a testkit model, one OpenAI-compatible chat
 * completion through it (the gateway's SQLite store and the session store both written by this
 * Node's native addon), then SIGTERM: a drain and exit 0.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { script, startScriptedServer } from '../../../packages/testkit/dist/index.js';

const KEY = 'node-matrix-gateway-key-0123456789';
const ANSWER = 'Served by the gateway.';
/** A backstop only: each step waits for the event it needs. */
const STEP_TIMEOUT_MS = 90_000;

/**
 * The child's output so far, and a promise for the first time it matches `pattern` (or the
 * child exits, or the backstop passes).
 * @param {import('node:child_process').ChildProcess} child
 */
function watch(child) {
  let output = '';
  /** @type {(() => void)[]} */
  const listeners = [];
  const exited = new Promise((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      for (const listener of [...listeners]) listener();
    });
  }
  return {
    output: () => output,
    exited: /** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} */ (exited),
    /** @param {RegExp} pattern @returns {Promise<RegExpMatchArray | undefined>} */
    waitFor(pattern) {
      return new Promise((resolve) => {
        const check = () => {
          const match = output.match(pattern);
          if (match) resolve(match);
          return match !== null;
        };
        if (check()) return;
        listeners.push(check);
        exited.then(() => resolve(output.match(pattern) ?? undefined));
        setTimeout(() => resolve(undefined), STEP_TIMEOUT_MS).unref();
      });
    },
  };
}

/**
 * @param {{ node: string, cliDir: string, scratch: string }} target
 * @returns {Promise<string | undefined>}
 */
export async function gatewayServes(target) {
  const server = await startScriptedServer(script().text(ANSWER));
  const home = mkdtempSync(join(target.scratch, 'gateway-home-'));
  writeFileSync(
    join(home, 'config.yaml'),
    `model:\n  provider: openai\n  default: scripted-model\n  base_url: ${server.url}/v1\n` +
      'platforms:\n  api_server:\n    enabled: true\n    port: 0\n',
  );
  const env = { ...process.env, HERMES_HOME: home, NO_COLOR: '1', API_SERVER_KEY: KEY };
  const child = spawn(target.node, [join(target.cliDir, 'dist', 'bin.js'), 'gateway', 'run'], {
    cwd: home,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run = watch(child);
  const tail = () => `\n    | ${run.output().trimEnd().split('\n').slice(-15).join('\n    | ')}`;
  try {
    const listening = await run.waitFor(/api_server listening on (http:\/\/127\.0\.0\.1:\d+)/);
    if (!listening) return `the API server never said where it listens${tail()}`;
    const response = await fetch(`${listening[1]}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'hermes-agent', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const body = await response.text();
    if (response.status !== 200 || !body.includes(ANSWER)) {
      return `chat completion answered ${response.status}: ${body.slice(0, 300)}${tail()}`;
    }
    child.kill('SIGTERM');
    const end = await Promise.race([
      run.exited,
      new Promise((resolve) => setTimeout(() => resolve(undefined), STEP_TIMEOUT_MS).unref()),
    ]);
    if (!end) return `still running ${STEP_TIMEOUT_MS / 1000} s after SIGTERM${tail()}`;
    const { code, signal } = /** @type {{ code: number | null, signal: string | null }} */ (end);
    if (code !== 0) return `SIGTERM ended it with ${signal ?? `exit ${code}`}, not exit 0${tail()}`;
    return undefined;
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await server.close();
  }
}
