/**
 * createAgentFactory: real agents against a @hermes/testkit scripted server, built from a real
 * config.yaml. They share one session store (one SQLite connection), get the request's session,
 * platform, model and approval handler, and release what they hold when closed.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { ApprovalHandler } from '@hermes/approval';
import type { AgentRequest } from '@hermes/gateway';
import { isHermesError } from '@hermes/protocol';
import { openSessionStore } from '@hermes/state';
import {
  type ScriptBuilder,
  type ScriptedServer,
  script,
  startScriptedServer,
} from '@hermes/testkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAgentFactory, type HermesConfig, loadHermesConfig } from '../src/index.ts';

const home = () => process.env.HERMES_HOME as string;

type Body = {
  model: string;
  messages: { role: string; content: string }[];
  tools?: { function: { name: string } }[];
};

/** Records every request and denies it. */
class RecordingApprovals extends ApprovalHandler {
  readonly commands: string[] = [];
  async request(command: string): Promise<'deny'> {
    this.commands.push(command);
    return 'deny';
  }
}

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(turns: ScriptBuilder, extraYaml = ''): Promise<HermesConfig> {
  server = await startScriptedServer(turns);
  writeFileSync(
    join(home(), 'config.yaml'),
    // No session titles: a title request would take the next scripted answer.
    `model:\n  provider: openai\n  default: scripted-model\n  base_url: ${server.baseUrl('openai-chat')}\nlearning:\n  titles: false\n${extraYaml}`,
  );
  return loadHermesConfig({ hermesHome: home(), env: { OPENAI_API_KEY: 'sk-test-key-1234' } });
}

function request(key: string, platform: string, extra: Partial<AgentRequest> = {}): AgentRequest {
  return {
    sessionKey: key,
    platform,
    userId: 'u1',
    approvalHandler: new RecordingApprovals(),
    ...extra,
  };
}

/** The file descriptors of this process open on `state.db` itself (one per SQLite connection). */
function stateDbConnections(): number {
  const db = join(home(), 'state.db');
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(join('/proc/self/fd', fd)) === db;
    } catch {
      return false; // closed while listing
    }
  }).length;
}

function body(index: number): Body {
  return server?.requests[index]?.body as Body;
}

function toolNames(index: number): string[] {
  return (body(index).tools ?? []).map((tool) => tool.function.name);
}

describe('createAgentFactory', () => {
  it('builds working agents that share one session store: two sessions, one connection', async () => {
    const config = await setup(script().text('one').next().text('two'));
    const built = createAgentFactory(config, { cwd: home() });
    try {
      const first = await built.factory(request('agent:default:telegram:dm:1', 'telegram'));
      const second = await built.factory(request('agent:default:api_server:dm:2', 'api_server'));
      expect(await first.agent.chat('hello from telegram')).toBe('one');
      expect(await second.agent.chat('hello from the API')).toBe('two');
      expect(first.agent.sessionId).not.toBe(second.agent.sessionId);
      const sessions = await built.shared.store.listSessions({});
      expect(sessions.map((session) => session.source).sort()).toEqual(['api_server', 'telegram']);
      expect(stateDbConnections()).toBe(1);
      expect(built.openAgents).toBe(2);
    } finally {
      await built.close();
    }
    expect(stateDbConnections()).toBe(0);
  });

  it("continues the request's session with its model, and asks its approval handler", async () => {
    mkdirSync(join(home(), 'scratch'));
    const config = await setup(
      script()
        .text('first answer')
        .next()
        .toolCall('terminal', { command: `rm -r ${join(home(), 'scratch')}` })
        .next()
        .text('It was not allowed.'),
      // The person rules here; smart mode would ask the (scripted) model first.
      'approvals:\n  mode: manual\n',
    );
    const built = createAgentFactory(config, { cwd: home() });
    try {
      const first = await built.factory(request('k', 'telegram'));
      await first.agent.chat('remember this');
      const sessionId = first.agent.sessionId as string;
      await first.close();
      const approvals = new RecordingApprovals();
      const again = await built.factory(
        request('k', 'telegram', { sessionId, model: 'other-model', approvalHandler: approvals }),
      );
      expect(await again.agent.chat('now delete scratch')).toBe('It was not allowed.');
      expect(again.agent.sessionId).toBe(sessionId);
      expect(body(1).model).toBe('other-model');
      const contents = body(1).messages.map((message) => message.content);
      expect(contents).toEqual(
        expect.arrayContaining(['remember this', 'first answer', 'now delete scratch']),
      );
      expect(approvals.commands).toEqual([`rm -r ${join(home(), 'scratch')}`]);
      expect(existsSync(join(home(), 'scratch'))).toBe(true);
    } finally {
      await built.close();
    }
  });

  it("gives each platform its toolsets: platform_toolsets, else Hermes' bundle, else toolsets", async () => {
    const config = await setup(
      script().text('a').next().text('b').next().text('c'),
      'toolsets: [file]\nplatform_toolsets:\n  telegram: [todo]\n',
    );
    const built = createAgentFactory(config, { cwd: home() });
    try {
      await (await built.factory(request('t', 'telegram'))).agent.chat('x');
      await (await built.factory(request('w', 'webhook'))).agent.chat('x');
      await (await built.factory(request('m', 'matrix'))).agent.chat('x');
      // telegram: only the configured todo (plus the tools the loop always serves).
      expect(toolNames(0)).toContain('todo');
      expect(toolNames(0)).not.toContain('read_file');
      // webhook: Hermes' read-only bundle for untrusted input.
      expect(toolNames(1)).toContain('web_extract');
      expect(toolNames(1)).not.toContain('terminal');
      expect(toolNames(1)).not.toContain('read_file');
      // … and none of the tools that write memory or skills or read other sessions.
      for (const name of ['memory', 'session_search', 'skill_manage', 'delegate_task']) {
        expect(toolNames(1)).not.toContain(name);
      }
      expect(toolNames(1)).not.toContain('write_file');
      // matrix has no bundle: the configured toolsets.
      expect(toolNames(2)).toContain('write_file');
      expect(toolNames(2)).not.toContain('terminal');
    } finally {
      await built.close();
    }
  });

  it('closing a handle releases its environment; closing the factory releases everything', async () => {
    const config = await setup(
      script()
        .toolCall('terminal', {
          command: `echo $$ > ${join(home(), 'sleeper.pid')} && exec sleep 300`,
          background: true,
        })
        .next()
        .text('started')
        .next()
        .text('still here'),
    );
    const built = createAgentFactory(config, { cwd: home() });
    const first = await built.factory(request('a', 'telegram'));
    const second = await built.factory(request('b', 'telegram'));
    expect(await first.agent.chat('start a sleeper')).toBe('started');
    // The shell writes its pid, then becomes the sleeper.
    const pidFile = join(home(), 'sleeper.pid');
    await vi.waitFor(() => expect(readFileSync(pidFile, 'utf8')).toMatch(/^\d+\n$/), {
      timeout: 15_000,
    });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(pid)).toBe(true);
    await Promise.all([first.close(), first.close()]);
    await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 15_000 });
    expect(built.openAgents).toBe(1);
    // The shared store stays open for the agents still cached.
    expect(await second.agent.chat('are you there?')).toBe('still here');
    await built.close();
    await built.close();
    expect(built.openAgents).toBe(0);
    expect(stateDbConnections()).toBe(0);
    let error: unknown;
    try {
      await built.factory(request('c', 'telegram'));
    } catch (caught) {
      error = caught;
    }
    expect(isHermesError(error) && error.code).toBe('runtime.factory_closed');
  });

  it('leaves a store the app passed open, and refuses a config that names no provider', async () => {
    const config = await setup(script().text('ok'));
    const store = openSessionStore({ hermesHome: home() });
    const built = createAgentFactory(config, { cwd: home(), store });
    const handle = await built.factory(request('a', 'telegram'));
    expect(await handle.agent.chat('hi')).toBe('ok');
    await built.close();
    expect((await store.listSessions({})).length).toBe(1);
    await store.close();
    const none = await loadHermesConfig({ hermesHome: join(home(), 'empty'), env: {} });
    expect(() => createAgentFactory(none)).toThrow(/hermes setup/);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
