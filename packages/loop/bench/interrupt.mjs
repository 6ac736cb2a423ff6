/**
 * Interrupt latency (`node bench/interrupt.mjs` in packages/loop, after `npx tsup`): how long
 * `runConversation` takes to return after `agent.interrupt()`, in the two places a user interrupts
 * most — a model call whose stream has stalled, and a `terminal` tool running `sleep 30` (its
 * process group must be dead too). Prints median, p90 and max over BENCH_RUNS (default 15) runs
 * beside the targets; nothing is asserted (the tests check the behaviour, never the speed).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandApprover } from '@hermes/approval';
import { ContextEngine } from '@hermes/context-engine';
import { LocalEnvironment } from '@hermes/environments';
import { OpenAIChatProvider } from '@hermes/providers';
import { openSessionStore } from '@hermes/state';
import { faults, script, startScriptedServer } from '@hermes/testkit';
import { coreTools, ToolRegistry } from '@hermes/tools';
import { Agent, RegistryToolbox } from '../dist/index.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);

class NoCompression extends ContextEngine {
  name = 'none';
  updateFromResponse() {}
  shouldCompress() {
    return false;
  }
  async compress(messages) {
    return {
      messages: [...messages],
      changed: false,
      stats: { messagesBefore: 0, messagesAfter: 0, tokensBefore: 0, tokensAfter: 0 },
    };
  }
}

function stats(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
  return `median ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms, max ${sorted.at(-1).toFixed(1)} ms`;
}

function alive(pid) {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function until(condition) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
}

/** One turn against a fresh server and store; `arm(agent, server)` interrupts at the right moment. */
async function interruptedTurn(home, turnScript, toolbox, arm) {
  const server = await startScriptedServer(turnScript);
  const store = await openSessionStore({ path: join(home, 'state.db') });
  const environment = new LocalEnvironment({ cwd: home, loginShellEnv: false });
  const agent = new Agent({
    provider: new OpenAIChatProvider({ apiKey: 'k', baseUrl: server.baseUrl('openai-chat') }),
    model: 'scripted-model',
    sessionStore: store,
    contextEngine: new NoCompression(),
    hermesHome: home,
    cwd: home,
    tools: toolbox,
    environment,
    approval: new CommandApprover({}, { hermesHome: home }),
    approvalSurface: 'single_query',
  });
  let interruptedAt = 0;
  const fire = () => {
    interruptedAt = performance.now();
    agent.interrupt();
  };
  arm(agent, server, fire);
  const result = await agent.runConversation('go');
  const ms = performance.now() - interruptedAt;
  if (!result.interrupted) throw new Error(`the turn was not interrupted: ${result.exitReason}`);
  await environment.cleanup();
  await server.close();
  await store.close();
  return ms;
}

async function stalledModelCall(home) {
  const toolbox = new RegistryToolbox(new ToolRegistry());
  return interruptedTurn(home, script().fault(faults.stall(1)), toolbox, (_agent, server, fire) => {
    void until(() => server.requests.length === 1).then(fire);
  });
}

async function terminalSleep(home) {
  const registry = new ToolRegistry();
  for (const spec of coreTools()) registry.register(spec);
  const pidFile = join(home, `pids-${Math.random().toString(36).slice(2)}`);
  const command = `echo $$ > ${pidFile}.tmp; sleep 30 & echo $! >> ${pidFile}.tmp; mv ${pidFile}.tmp ${pidFile}; wait`;
  const turnScript = script().toolCall('terminal', { command }).next().text('never');
  let pids = [];
  const ms = await interruptedTurn(
    home,
    turnScript,
    new RegistryToolbox(registry),
    (agent, _s, fire) => {
      agent.on('tool_call_start', () => {
        void until(() => existsSync(pidFile)).then(() => {
          pids = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
          fire();
        });
      });
    },
  );
  const survivors = pids.filter(alive).length;
  return { ms, survivors };
}

const home = mkdtempSync(join(tmpdir(), 'hermes-bench-interrupt-'));
process.env.HERMES_HOME = home;
try {
  await stalledModelCall(home); // warm-up
  const model = [];
  for (let i = 0; i < RUNS; i++) model.push(await stalledModelCall(home));
  console.log(`interrupt → return, stalled model stream: ${stats(model)} (target: < 1,000 ms)`);
  const terminal = [];
  let survivors = 0;
  for (let i = 0; i < RUNS; i++) {
    const run = await terminalSleep(home);
    terminal.push(run.ms);
    survivors += run.survivors;
  }
  console.log(
    `interrupt → return, terminal \`sleep 30\`: ${stats(terminal)}; processes alive at return: ${survivors} (target: < 200 ms, none alive)`,
  );
} finally {
  rmSync(home, { recursive: true, force: true });
}
