/**
 * Real agents for gateway tests: `createAgent` from @hermes/loop with an OpenAI provider entry
 * pointed at a @hermes/testkit scripted server, sessions in the test's HERMES_HOME/state.db.
 * The factory records every handle it built and whether it was closed.
 */
import { ApprovalHandler } from '@hermes/approval';
import { createAgent } from '@hermes/loop';
import type { ApprovalDecision } from '@hermes/protocol';
import type { ScriptBuilder, ScriptedServer } from '@hermes/testkit';
import { startScriptedServer } from '@hermes/testkit';
import type { AgentFactory, AgentHandle, AgentRequest } from '../../src/index.js';

/** Denies every command; the tests here never run one. */
export class DenyApprovals extends ApprovalHandler {
  async request(): Promise<ApprovalDecision> {
    return 'deny';
  }
}

/** A handle as the test sees it: what it was built for and whether it was closed. */
export interface BuiltAgent extends AgentHandle {
  readonly request: AgentRequest;
  closed: number;
}

/** A testkit server and a factory of real agents talking to it. */
export interface AgentFixture {
  readonly server: ScriptedServer;
  readonly factory: AgentFactory;
  readonly built: BuiltAgent[];
  /** An AgentRequest for `key`, optionally continuing `sessionId`. */
  request(key: string, sessionId?: string): AgentRequest;
  /** Closes every agent built and the server. */
  close(): Promise<void>;
}

/** Starts a scripted server and a factory; `contextLength` sets the agents' window. */
export async function startAgentFixture(
  script: ScriptBuilder,
  options: { readonly contextLength?: number } = {},
): Promise<AgentFixture> {
  const server = await startScriptedServer(script);
  const home = process.env.HERMES_HOME ?? '';
  const built: BuiltAgent[] = [];
  const factory: AgentFactory = (request) => {
    const created = createAgent(
      {
        provider: {
          provider: 'openai',
          model: 'm',
          apiKey: 'k',
          baseUrl: server.baseUrl('openai-chat'),
        },
        hermesHome: home,
        cwd: home,
        platform: request.platform,
        delegation: false,
        memory: false,
        // A title request would take the next scripted answer; these tests script conversations.
        learning: { titles: false },
        ...(request.sessionId ? { sessionId: request.sessionId } : {}),
        ...(options.contextLength ? { contextLength: options.contextLength } : {}),
      },
      { approvalHandler: request.approvalHandler },
    );
    const handle: BuiltAgent = {
      request,
      agent: created.agent,
      closed: 0,
      async close() {
        handle.closed += 1;
        if (handle.closed === 1) await created.close();
      },
    };
    built.push(handle);
    return handle;
  };
  const approvalHandler = new DenyApprovals();
  return {
    server,
    factory,
    built,
    request: (key, sessionId) => ({
      sessionKey: key,
      platform: 'telegram',
      userId: 'u1',
      approvalHandler,
      ...(sessionId ? { sessionId } : {}),
    }),
    async close() {
      for (const handle of built) await handle.close();
      await server.close();
    },
  };
}
