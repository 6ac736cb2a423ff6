// Heap held by one idle cached agent (the gateway issue's target: ≤ 200 KB).
//
//   npx tsup && node --expose-gc bench/agent-heap.mjs [agents=200] [--unshared]
//
// Builds the factory from a real config.yaml in a temporary HERMES_HOME, pointed at a
// @hermes/testkit scripted server (in a child process, so the requests it records are not in
// the heap measured here), warms it up with one agent (build, turn, close: module-level
// caches and the shared parts' lazy state fill here, once per process), then builds N agents
// through `createAgentFactory`, runs one short turn on each and keeps them open, as the gateway's
// agent cache does. After full GCs it prints (heap after N − heap after the warm-up) / N, and RSS.
// `--unshared` builds each agent with its own store, registry and skills (what the factory
// replaced), for comparison. Plain node: imports the built packages (dist).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ApprovalHandler } from '@hermes/approval';
import { script } from '@hermes/testkit';
import { buildAgent, createAgentFactory, loadHermesConfig } from '../dist/index.js';

if (typeof globalThis.gc !== 'function') {
  console.error('run with: node --expose-gc bench/agent-heap.mjs');
  process.exit(2);
}
const count = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 200);
const unshared = process.argv.includes('--unshared');

class DenyAll extends ApprovalHandler {
  async request() {
    return 'deny';
  }
}

async function settle() {
  for (let i = 0; i < 6; i += 1) {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage();
}

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

const home = mkdtempSync(join(tmpdir(), 'hermes-agent-heap-'));
process.env.HERMES_HOME = home;
const scriptFile = join(home, 'script.json');
writeFileSync(
  scriptFile,
  JSON.stringify(
    script()
      .text('Hello! How can I help?')
      .usage({ inputTokens: 900, outputTokens: 8 })
      .times(count + 1)
      .toJSON(),
  ),
);
const testkitBin = join(
  dirname(createRequire(import.meta.url).resolve('@hermes/testkit/package.json')),
  'dist/bin.js',
);
const child = spawn(process.execPath, [testkitBin, 'serve', '--script', scriptFile], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const [line] = await once(child.stdout, 'data');
const serverUrl = /listening on (\S+)/.exec(String(line))?.[1];
if (!serverUrl) throw new Error(`the testkit server did not start: ${line}`);
writeFileSync(
  join(home, 'config.yaml'),
  `model:\n  provider: openai\n  default: scripted-model\n  base_url: ${serverUrl}/v1\n`,
);
const config = await loadHermesConfig({ hermesHome: home, env: { OPENAI_API_KEY: 'sk-bench' } });
const built = createAgentFactory(config, { cwd: home });
const approvalHandler = new DenyAll();

function request(index) {
  return {
    sessionKey: `agent:default:api_server:dm:${index}`,
    platform: 'api_server',
    userId: `user-${index}`,
    approvalHandler,
  };
}

async function agentFor(index) {
  if (!unshared) return built.factory(request(index));
  const created = buildAgent(config, {
    platform: 'api_server',
    cwd: home,
    surface: 'interactive',
    approvalHandler,
  });
  return { agent: created.agent, close: () => created.close() };
}

const warm = await agentFor(-1);
await warm.agent.chat('hi');
await warm.close();
const before = await settle();

const handles = [];
const started = performance.now();
for (let index = 0; index < count; index += 1) {
  const handle = await agentFor(index);
  await handle.agent.chat(`hi from user ${index}`);
  handles.push(handle);
}
const elapsed = performance.now() - started;
const after = await settle();

const perAgent = (after.heapUsed - before.heapUsed) / count;
console.log(
  `agents: ${count} idle after one turn each (${unshared ? 'unshared' : 'shared'} parts)`,
);
console.log(`heap after warm-up:  ${mb(before.heapUsed)}   rss ${mb(before.rss)}`);
console.log(`heap after ${count} agents: ${mb(after.heapUsed)}   rss ${mb(after.rss)}`);
console.log(`heap per idle agent: ${kb(perAgent)}   (target ≤ 200 KB)`);
console.log(`rss per agent:       ${kb((after.rss - before.rss) / count)}`);
console.log(`build + turn:        ${(elapsed / count).toFixed(1)} ms per agent`);

for (const handle of handles) await handle.close();
handles.length = 0;
const closed = await settle();
console.log(`heap after closing:  ${mb(closed.heapUsed)}   rss ${mb(closed.rss)}`);
await built.close();
child.kill('SIGTERM');
await once(child, 'exit');
rmSync(home, { recursive: true, force: true });
process.exitCode = perAgent <= 200 * 1024 ? 0 : 1;
