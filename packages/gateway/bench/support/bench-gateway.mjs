/**
 * The real Gateway as the benchmarks run it: agents from `createAgent` on one set of shared
 * components (as the runtime's factory builds them for `hermes-gateway`), the SQLite gateway
 * store in a temporary HERMES_HOME, the in-process lane, and whichever adapters the benchmark
 * brings — the ApiServerAdapter, or {@link BenchChatAdapter}, a chat platform in memory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, createSharedComponents } from '@hermes/loop';
import {
  Gateway,
  PlatformAdapter,
  resolveGatewaySettings,
  resolvePlatformSettings,
  SqliteGatewayStore,
} from '../../dist/index.js';

/**
 * An agent factory over shared components: each agent builds only its own parts (provider
 * chain, context engine, approver, memory view, a lazily built environment). Counts the agents
 * it built and closed.
 */
export function sharedAgentFactory({ home, modelUrl }) {
  const shared = createSharedComponents({ hermesHome: home });
  const counts = { built: 0, closed: 0 };
  const factory = (request) => {
    counts.built += 1;
    const created = createAgent(
      {
        provider: {
          provider: 'openai',
          model: request.model ?? 'm',
          apiKey: 'k',
          baseUrl: modelUrl,
        },
        hermesHome: home,
        cwd: home,
        platform: request.platform,
        approvalSurface: 'interactive',
        ...(request.sessionId ? { sessionId: request.sessionId } : {}),
      },
      { approvalHandler: request.approvalHandler, shared },
    );
    let closing;
    return {
      agent: created.agent,
      close() {
        closing ??= created.close().then(() => {
          counts.closed += 1;
        });
        return closing;
      },
    };
  };
  return { factory, counts, close: () => shared.close() };
}

/**
 * A chat platform in memory: delivers each message to the gateway and keeps only the last text
 * it was asked to send (a benchmark must not hold what it measures), plus counts.
 */
export class BenchChatAdapter extends PlatformAdapter {
  platform = 'bench';
  sent = 0;
  /** `{ chatId, text }` of the latest send. */
  last = undefined;
  #handler = undefined;
  #next = 0;

  async connect(onMessage) {
    this.#handler = onMessage;
  }

  async disconnect() {
    this.#handler = undefined;
  }

  capabilities() {
    return {
      maxMessageLength: 4_096,
      canEdit: false,
      supportsDrafts: false,
      hasOwnAccessPolicy: false,
      supportsThreads: false,
      supportsMarkdown: false,
    };
  }

  async send(target, message) {
    this.sent += 1;
    this.last = { chatId: target.chatId, text: message.text };
    this.#next += 1;
    return { messageId: `out-${this.#next}` };
  }

  /** A DM from `userId` in chat `chatId`, as the platform would deliver it. */
  async say(chatId, userId, text) {
    this.#next += 1;
    await this.#handler?.({
      platform: this.platform,
      chatId,
      userId,
      text,
      messageId: `in-${this.#next}`,
      receivedAt: Date.now(),
      isDirect: true,
    });
  }
}

/**
 * Builds and starts a Gateway in a fresh temporary HERMES_HOME. `gateway` and `platforms` are
 * config.yaml's sections; `adapters` the platforms it serves. `close()` stops it and removes
 * the home.
 */
export async function startBenchGateway({ modelUrl, gateway = {}, platforms = {}, adapters }) {
  const home = mkdtempSync(join(tmpdir(), 'hermes-gateway-bench-'));
  const agents = sharedAgentFactory({ home, modelUrl });
  const store = SqliteGatewayStore.open({ path: join(home, 'state.db') });
  const instance = new Gateway({
    settings: resolveGatewaySettings(gateway),
    platforms: resolvePlatformSettings(platforms),
    adapters,
    agentFactory: agents.factory,
    store,
    hermesHome: home,
  });
  await instance.start();
  return {
    gateway: instance,
    agents: agents.counts,
    home,
    async close() {
      await instance.stop({ drainTimeoutMs: 10_000 });
      await agents.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
