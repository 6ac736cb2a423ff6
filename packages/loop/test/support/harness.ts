/**
 * Builds an Agent against real components: the testkit server over HTTP (OpenAI chat protocol),
 * a SQLite session store in the test's HERMES_HOME, and the given toolbox and environment. The
 * context engine is a small test engine at its seam (the real compressor has its own tests).
 */
import { join } from 'node:path';
import {
  type CompressionResult,
  type CompressOptions,
  ContextEngine,
} from '@hermes/context-engine';
import type { ChatMessage, Usage } from '@hermes/protocol';
import { OpenAIChatProvider } from '@hermes/providers';
import { openSessionStore, type SqliteSessionStore } from '@hermes/state';
import { type ScriptBuilder, type ScriptedServer, startScriptedServer } from '@hermes/testkit';
import { Agent, type AgentOptions } from '../../src/index.js';
import type { Toolbox } from '../../src/tools/toolbox.js';

/** A context engine that compresses when told to, keeping the last `keep` messages. */
export class KeepLastEngine extends ContextEngine {
  readonly name = 'keep-last';
  threshold = Number.POSITIVE_INFINITY;
  compressions = 0;
  constructor(readonly keep = 2) {
    super();
  }
  updateFromResponse(_usage: Usage): void {}
  shouldCompress(promptTokens = 0): boolean {
    return promptTokens >= this.threshold;
  }
  /** The focus topic of each compress call, in order. */
  focusTopics: (string | undefined)[] = [];
  /** Warnings each result carries (`CompressionResult.warnings`). */
  warnings: string[] = [];
  /** False: results change the messages without a summary (pruning only). */
  writesSummary = true;
  async compress(
    messages: readonly ChatMessage[],
    options: CompressOptions = {},
  ): Promise<CompressionResult> {
    this.compressions += 1;
    this.focusTopics.push(options.focusTopic);
    const kept = messages.slice(-this.keep);
    const text = `[summary of ${messages.length - kept.length} messages]`;
    const summary: ChatMessage = { role: 'user', content: text };
    const out = [summary, ...kept];
    return {
      messages: out,
      changed: true,
      ...(this.writesSummary ? { summary: text } : {}),
      ...(this.warnings.length ? { warnings: [...this.warnings] } : {}),
      stats: {
        messagesBefore: messages.length,
        messagesAfter: out.length,
        tokensBefore: 100,
        tokensAfter: 10,
      },
    };
  }
}

/** Everything a loop test needs, closed by `close()`. */
export interface Harness {
  readonly server: ScriptedServer;
  readonly store: SqliteSessionStore;
  readonly engine: KeepLastEngine;
  readonly agent: Agent;
  readonly provider: OpenAIChatProvider;
  close(): Promise<void>;
}

/** Starts the server with `script` and builds an agent over it. */
export async function startHarness(
  script: ScriptBuilder,
  parts: { toolbox: Toolbox; environment: AgentOptions['environment'] } & Partial<AgentOptions>,
): Promise<Harness> {
  const server = await startScriptedServer(script);
  const home = process.env.HERMES_HOME ?? '';
  const store = await openSessionStore({ path: join(home, 'state.db') });
  const provider = new OpenAIChatProvider({
    apiKey: 'test-key',
    baseUrl: server.baseUrl('openai-chat'),
  });
  const engine = new KeepLastEngine();
  const agent = new Agent({
    provider,
    model: 'scripted-model',
    sessionStore: store,
    contextEngine: engine,
    hermesHome: home,
    cwd: home,
    retryBaseMs: 1,
    ...parts,
    tools: parts.toolbox,
  });
  return {
    server,
    store,
    engine,
    agent,
    provider,
    async close() {
      await server.close();
      await store.close();
    },
  };
}
