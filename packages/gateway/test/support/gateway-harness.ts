/**
 * A whole gateway for pipeline tests, built from real parts: agents from `createAgent` against a
 * testkit scripted server, the SQLite gateway store in the test's HERMES_HOME, the in-process
 * lane, and the LoopbackAdapter as the chat platform. Tests drive it with `say` and wait for
 * events (`gateway.settled()`, a sent message, a tool entering its gate), never for time.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type CreateAgentDeps, type CreatedAgent, createAgent } from '@hermes/loop';
import type { AgentEvent } from '@hermes/protocol';
import { type ScriptBuilder, type ScriptedServer, startScriptedServer } from '@hermes/testkit';
import { vi } from 'vitest';
import { z } from 'zod';
import type { AgentFactory, AgentRequest } from '../../src/agents/agent-factory.js';
import type { PlatformCapabilities } from '../../src/capabilities.js';
import type { Timers } from '../../src/delivery/timers.js';
import { Gateway } from '../../src/gateway.js';
import type { GatewayLog, LogFields } from '../../src/log.js';
import type { InboundContext, InboundMessage } from '../../src/messages.js';
import type { PlatformAdapter } from '../../src/platform-adapter.js';
import {
  type GatewaySection,
  resolveGatewaySettings,
} from '../../src/settings/gateway-settings.js';
import {
  type PlatformSettings,
  resolvePlatformSettings,
} from '../../src/settings/platform-settings.js';
import { SqliteGatewayStore } from '../../src/store/sqlite-gateway-store.js';
import type { TurnOutcome, TurnSink } from '../../src/turn-sink.js';
import { LoopbackAdapter, type LoopbackSent } from './loopback-adapter.js';

/** A tool spec as `createAgent` takes it. */
export type ExtraTool = NonNullable<CreateAgentDeps['tools']>[number];

/**
 * A `hold` tool whose calls wait until the test releases them (or the turn is interrupted), so
 * "a turn is running" is a fact the test can wait for.
 */
export class ToolGate {
  /** Calls that entered the tool so far. */
  entered = 0;
  readonly #waiters: Array<{ count: number; resolve: () => void }> = [];
  #release: (() => void) | undefined;
  #released = Promise.resolve();

  constructor() {
    this.#arm();
  }

  /** The tool spec to give the agents. */
  readonly tool: ExtraTool = {
    name: 'hold',
    toolset: 'hermes-cli',
    description: 'Waits for the operator.',
    parameters: z.object({}),
    handler: async (_args: unknown, ctx: { signal: AbortSignal }) => {
      this.entered += 1;
      for (const waiter of this.#waiters.filter((w) => w.count <= this.entered)) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const aborted = new Promise<string>((resolve) => {
        if (ctx.signal.aborted) resolve('cancelled');
        ctx.signal.addEventListener('abort', () => resolve('cancelled'), { once: true });
      });
      return Promise.race([this.#released.then(() => 'released'), aborted]);
    },
  } as ExtraTool;

  /** Resolves once `count` calls have entered the tool. */
  waitEntered(count = 1): Promise<void> {
    if (this.entered >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  /** Lets every waiting call return; later calls wait again. */
  release(): void {
    this.#release?.();
    this.#arm();
  }

  #arm(): void {
    this.#released = new Promise((resolve) => {
      this.#release = resolve;
    });
  }
}

/** A log that keeps its lines for assertions. */
export class MemoryLog implements GatewayLog {
  readonly lines: Array<{ level: string; message: string; fields?: LogFields }> = [];
  info(message: string, fields?: LogFields): void {
    this.lines.push({ level: 'info', message, ...(fields ? { fields } : {}) });
  }
  warn(message: string, fields?: LogFields): void {
    this.lines.push({ level: 'warn', message, ...(fields ? { fields } : {}) });
  }
  error(message: string, fields?: LogFields): void {
    this.lines.push({ level: 'error', message, ...(fields ? { fields } : {}) });
  }
}

/** A TurnSink that records everything and resolves `settled` at `finish` or `fail`. */
export class RecordingSink implements TurnSink {
  readonly events: AgentEvent[] = [];
  readonly notices: string[] = [];
  outcome: TurnOutcome | undefined;
  failure: { code: string; message: string } | undefined;
  readonly settled: Promise<void>;
  #settle: () => void = () => {};
  constructor() {
    this.settled = new Promise((resolve) => {
      this.#settle = resolve;
    });
  }
  event(event: AgentEvent): void {
    this.events.push(event);
  }
  notice(text: string): void {
    this.notices.push(text);
  }
  finish(outcome: TurnOutcome): void {
    this.outcome = outcome;
    this.#settle();
  }
  fail(error: { readonly code: string; readonly message: string }): void {
    this.failure = { code: error.code, message: error.message };
    this.#settle();
  }
}

/** How to build a test gateway. */
export interface HarnessOptions {
  /** `gateway:` as config.yaml spells it. Default: user `u1` on the global allowlist. */
  readonly gateway?: GatewaySection;
  /** `platforms:` as config.yaml spells it. */
  readonly platforms?: Record<string, unknown>;
  readonly capabilities?: Partial<PlatformCapabilities>;
  readonly tools?: readonly ExtraTool[];
  readonly extraAdapters?: readonly PlatformAdapter[];
  readonly clock?: () => number;
  readonly timers?: Timers;
  /** Start the gateway (default true). */
  readonly start?: boolean;
  /** Reuse a running server (a second gateway "after a restart"). */
  readonly server?: ScriptedServer;
}

/** A running test gateway. */
export interface Harness {
  readonly server: ScriptedServer;
  readonly adapter: LoopbackAdapter;
  readonly gateway: Gateway;
  readonly store: SqliteGatewayStore;
  readonly log: MemoryLog;
  readonly home: string;
  /** The agents' working directory (LocalEnvironment cwd). */
  readonly workdir: string;
  readonly platforms: readonly PlatformSettings[];
  /** Every AgentRequest the factory was asked to build, in order. */
  readonly builds: AgentRequest[];
  /** Agents closed so far. */
  readonly closed: { count: number };
  /** Every agent the factory built, in order. */
  readonly created: CreatedAgent[];
  /** Sends `text` as user `u1` in DM `dm-1`, or as `from` says. */
  say(text: string, from?: Partial<Omit<InboundMessage, 'text'>>): Promise<void>;
  /** Hands a message with its own sink straight to the gateway. */
  ask(text: string, context: InboundContext, from?: Partial<InboundMessage>): Promise<void>;
  /** The texts sent so far (latest version of each message). */
  texts(chatId?: string): string[];
  /** Waits until a sent message matches, and returns it. */
  waitForSent(match: (text: string) => boolean, chatId?: string): Promise<LoopbackSent>;
  close(): Promise<void>;
}

let nextMessage = 1;

/** Builds and (by default) starts a gateway over `script`. */
export async function startHarness(
  script: ScriptBuilder,
  options: HarnessOptions = {},
): Promise<Harness> {
  const home = process.env.HERMES_HOME ?? '';
  const workdir = join(home, 'work');
  mkdirSync(workdir, { recursive: true });
  const server = options.server ?? (await startScriptedServer(script));
  const store = SqliteGatewayStore.open({ hermesHome: home });
  const adapter = new LoopbackAdapter(options.capabilities);
  const builds: AgentRequest[] = [];
  const closed = { count: 0 };
  const createdAgents: CreatedAgent[] = [];
  const factory: AgentFactory = (request) => {
    builds.push(request);
    const created = createAgent(
      {
        provider: {
          provider: 'openai',
          model: request.model ?? 'm',
          apiKey: 'k',
          baseUrl: server.baseUrl('openai-chat'),
        },
        hermesHome: home,
        cwd: workdir,
        platform: request.platform,
        approvalSurface: 'interactive',
        delegation: false,
        memory: false,
        // A title request would take the next scripted answer; these tests script conversations.
        learning: { titles: false },
        ...(request.sessionId ? { sessionId: request.sessionId } : {}),
      },
      { approvalHandler: request.approvalHandler, tools: options.tools ?? [] },
    );
    createdAgents.push(created);
    return {
      agent: created.agent,
      auxiliaryUsage: () => created.auxiliary.usage(),
      async close() {
        closed.count += 1;
        await created.close();
      },
    };
  };
  const platforms = resolvePlatformSettings(options.platforms ?? {});
  const log = new MemoryLog();
  const gateway = new Gateway({
    settings: resolveGatewaySettings(options.gateway ?? { allowed_users: ['u1'] }),
    platforms,
    adapters: [adapter, ...(options.extraAdapters ?? [])],
    agentFactory: factory,
    store,
    hermesHome: home,
    log,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.timers ? { timers: options.timers } : {}),
  });
  if (options.start !== false) await gateway.start();
  const texts = (chatId?: string) =>
    adapter.sent
      .filter((m) => chatId === undefined || m.target.chatId === chatId)
      .map((m) => m.text);
  return {
    server,
    adapter,
    gateway,
    store,
    log,
    home,
    workdir,
    platforms,
    builds,
    closed,
    created: createdAgents,
    async say(text, from = {}) {
      await adapter.simulateInbound({
        chatId: from.chatId ?? 'dm-1',
        userId: from.userId ?? 'u1',
        isDirect: from.isDirect ?? true,
        text,
        ...(from.threadId ? { threadId: from.threadId } : {}),
        ...(from.userName ? { userName: from.userName } : {}),
      });
    },
    async ask(text, context, from = {}) {
      await gateway.handle(
        {
          platform: from.platform ?? adapter.platform,
          chatId: from.chatId ?? 'api-1',
          userId: from.userId ?? 'u1',
          text,
          messageId: `m-${nextMessage++}`,
          receivedAt: Date.now(),
          isDirect: from.isDirect ?? true,
        },
        context,
      );
    },
    texts,
    async waitForSent(match, chatId) {
      let found: LoopbackSent | undefined;
      await vi.waitFor(
        () => {
          found = adapter.sent.find(
            (m) => (chatId === undefined || m.target.chatId === chatId) && match(m.text),
          );
          if (!found) throw new Error(`no sent message matched; sent: ${JSON.stringify(texts())}`);
        },
        { timeout: 15_000, interval: 5 },
      );
      return found as LoopbackSent;
    },
    async close() {
      await gateway.stop({ drainTimeoutMs: 5_000 });
      if (!options.server) await server.close();
    },
  };
}
