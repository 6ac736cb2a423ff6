import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  callSpec,
  FIXTURE_SERVER,
  fixtureEntry,
  specNamed,
  startHub,
  toolContext,
} from './helpers.js';

describe('a stdio server of our own', () => {
  it('starts with only PATH, HOME, locale … and its own env, never an API key', async () => {
    const hostEnv = {
      PATH: process.env.PATH,
      HOME: '/home/someone',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      TERM: 'xterm',
      LOGNAME: 'someone',
      OPENAI_API_KEY: 'sk-secret-should-not-pass',
      AWS_SECRET_ACCESS_KEY: 'also-secret',
    };
    const previous = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-secret-from-process-env';
    try {
      const hub = await startHub(
        { t: fixtureEntry('normal', { env: { SERVER_TOKEN: 'given-on-purpose' } }) },
        { env: hostEnv },
      );
      const keys = JSON.parse(
        await callSpec(specNamed(hub.toolSpecs(), 'mcp_t_env_keys'), {}),
      ) as string[];
      const allowed = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TERM', 'SERVER_TOKEN'];
      // Node may add nothing of its own; everything present must be on the list.
      expect(keys.filter((k) => !allowed.includes(k))).toEqual([]);
      expect(keys).toEqual(
        expect.arrayContaining(['HOME', 'LANG', 'LC_ALL', 'PATH', 'SERVER_TOKEN', 'TERM']),
      );
    } finally {
      if (previous === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = previous;
    }
  });

  it('reconnects after the server crashes mid-session, and the next call works', async () => {
    const changes: number[] = [];
    const hub = await startHub({ t: fixtureEntry() }, { reconnectBaseMs: 20 });
    hub.onToolsChanged(() => changes.push(hub.generation));
    const specs = hub.toolSpecs();
    const firstPid = await callSpec(specNamed(specs, 'mcp_t_pid'), {});
    const crashed = await callSpec(specNamed(specs, 'mcp_t_crash'), {});
    expect(crashed).toMatch(/closed the connection|not connected/);
    const echo = await callSpec(specNamed(specs, 'mcp_t_echo'), { message: 'again' });
    expect(echo).toBe('echo: again');
    const secondPid = await callSpec(specNamed(specs, 'mcp_t_pid'), {});
    expect(secondPid).not.toBe(firstPid);
    expect(hub.statuses()[0]?.state).toBe('connected');
    expect(changes.length).toBeGreaterThan(0);
  });

  it('gives up after maxReconnects and then answers calls with a clear error', async () => {
    const errors: string[] = [];
    const logger = {
      info: () => undefined,
      warn: () => undefined,
      error: (m: string) => errors.push(m),
    };
    const marker = join(process.env.HERMES_HOME ?? mkdtempSync(join(tmpdir(), 'mcp-')), 'crashed');
    const entry = { command: process.execPath, args: [FIXTURE_SERVER, 'normal', marker] };
    const hub = await startHub({ t: entry }, { reconnectBaseMs: 5, maxReconnects: 2, logger });
    const specs = hub.toolSpecs();
    const failed = new Promise<void>((resolve) =>
      hub.onToolsChanged(() => {
        if (hub.statuses()[0]?.state === 'failed') resolve();
      }),
    );
    await callSpec(specNamed(specs, 'mcp_t_crash'), {});
    await failed;
    expect(errors).toEqual([
      expect.stringMatching(/"t" disconnected, and 2 reconnect attempts failed/),
    ]);
    expect(hub.toolSpecs()).toEqual([]);
    const text = await callSpec(specNamed(specs, 'mcp_t_echo'), { message: 'x' });
    expect(text).toMatch(
      /^Error: MCP server "t" is not connected \(failed: disconnected, and 2 reconnect attempts failed/,
    );
  });

  it('times out a call the server never answers, with a result naming server, tool and seconds', async () => {
    const hub = await startHub({ t: fixtureEntry('normal', { timeout: 1 }) });
    const started = Date.now();
    const text = await callSpec(specNamed(hub.toolSpecs(), 'mcp_t_hang'), {});
    expect(text).toBe(
      'Error: tool "hang" on MCP server "t" timed out after 1 s (the server\'s `timeout`); the request was cancelled.',
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    // The server was told to stop working on it.
    expect(await callSpec(specNamed(hub.toolSpecs(), 'mcp_t_cancelled_count'), {})).toBe('1');
  });

  it('cancels the in-flight request when ctx.signal aborts', async () => {
    const hub = await startHub({ t: fixtureEntry() });
    const controller = new AbortController();
    const reached = new Promise<void>((resolve) =>
      hub.onToolsChanged(() => {
        if (hub.toolSpecs().some((s) => s.name === 'mcp_t_hang_started_1')) resolve();
      }),
    );
    const pending = callSpec(
      specNamed(hub.toolSpecs(), 'mcp_t_hang'),
      {},
      toolContext({ signal: controller.signal }),
    );
    await reached;
    controller.abort();
    expect(await pending).toMatch(
      /^Cancelled: the call to tool "hang" on MCP server "t" was interrupted/,
    );
    expect(await callSpec(specNamed(hub.toolSpecs(), 'mcp_t_cancelled_count'), {})).toBe('1');
  });

  it('fails a server that never finishes the handshake at connect_timeout without delaying the others', async () => {
    const warnings: string[] = [];
    const logger = {
      info: () => undefined,
      warn: (m: string) => warnings.push(m),
      error: () => undefined,
    };
    const started = Date.now();
    const hub = new Promise<Awaited<ReturnType<typeof startHub>>>((resolve) => {
      void startHub(
        { quiet: fixtureEntry('silent', { connect_timeout: 1 }), ok: fixtureEntry() },
        { logger },
      ).then(resolve);
    });
    const ready = await hub;
    const elapsed = Date.now() - started;
    const byName = Object.fromEntries(ready.statuses().map((s) => [s.name, s]));
    expect(byName.ok?.state).toBe('connected');
    expect(byName.quiet?.state).toBe('failed');
    expect(byName.quiet?.error).toMatch(/1 s/);
    expect(elapsed).toBeLessThan(15_000);
    expect(warnings.filter((w) => w.includes('"quiet"'))).toHaveLength(1);
    expect(ready.toolSpecs().some((s) => s.name === 'mcp_ok_echo')).toBe(true);
  });

  it('bumps generation on tools/list_changed and exposes the new tool', async () => {
    const hub = await startHub({ t: fixtureEntry() });
    const before = hub.generation;
    const changed = new Promise<void>((resolve) => {
      const off = hub.onToolsChanged(() => {
        if (hub.toolSpecs().some((s) => s.name === 'mcp_t_fresh')) {
          off();
          resolve();
        }
      });
    });
    expect(await callSpec(specNamed(hub.toolSpecs(), 'mcp_t_add_tool'), { name: 'fresh' })).toBe(
      'added fresh',
    );
    await changed;
    expect(hub.generation).toBeGreaterThan(before);
    expect(await callSpec(specNamed(hub.toolSpecs(), 'mcp_t_fresh'), {})).toBe('hello from fresh');
  });
});
