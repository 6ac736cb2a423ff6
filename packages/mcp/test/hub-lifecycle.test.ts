import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { McpServersSectionSchema } from '../src/index.js';
import { callSpec, fixtureEntry, specNamed, startHub, toolContext } from './helpers.js';

describe('McpHub lifecycle', () => {
  it('reports a disabled server without starting it', async () => {
    const hub = await startHub({
      off: fixtureEntry('normal', { enabled: false }),
      on: fixtureEntry(),
    });
    expect(hub.statuses().map((s) => [s.name, s.state, s.tools.length > 0])).toEqual([
      ['off', 'disabled', false],
      ['on', 'connected', true],
    ]);
    expect(hub.toolSpecs().some((s) => s.name.startsWith('mcp_off_'))).toBe(false);
  });

  it('reports a stdio command that does not exist as failed, once, and keeps the others', async () => {
    const warnings: string[] = [];
    const logger = {
      info: () => undefined,
      warn: (m: string) => warnings.push(m),
      error: () => undefined,
    };
    const hub = await startHub(
      { missing: { command: '/nonexistent/mcp-server' }, ok: fixtureEntry() },
      { logger },
    );
    const [missing, ok] = hub.statuses();
    expect(missing).toMatchObject({ name: 'missing', state: 'failed', tools: [] });
    expect(missing?.error).toMatch(/ENOENT/);
    expect(ok?.state).toBe('connected');
    expect(warnings).toEqual([
      expect.stringMatching(/^MCP server "missing" failed to connect: .*ENOENT/),
    ]);
  });

  it('reload swaps the servers, bumps generation and notifies listeners', async () => {
    const hub = await startHub({ first: fixtureEntry() });
    let notified = 0;
    hub.onToolsChanged(() => notified++);
    const before = hub.generation;
    await hub.reload(McpServersSectionSchema.parse({ second: fixtureEntry() }));
    expect(hub.generation).toBeGreaterThan(before);
    expect(notified).toBeGreaterThan(0);
    expect(hub.statuses().map((s) => s.name)).toEqual(['second']);
    expect(hub.toolSpecs().some((s) => s.name.startsWith('mcp_first_'))).toBe(false);
    expect(await callSpec(specNamed(hub.toolSpecs(), 'mcp_second_echo'), { message: 'm' })).toBe(
      'echo: m',
    );
  });

  it('a spec kept from before close answers with a clear error instead of throwing', async () => {
    const hub = await startHub({ t: fixtureEntry() });
    const echo = specNamed(hub.toolSpecs(), 'mcp_t_echo');
    await hub.close();
    expect(await callSpec(echo, { message: 'm' })).toMatch(
      /^Error: MCP server "t" is not connected \(failed: closed\)/,
    );
    expect(hub.toolSpecs()).toEqual([]);
  });
});

describe('abort listeners', () => {
  it('leaves no listener on the turn signal after many calls', async () => {
    const hub = await startHub({ t: fixtureEntry() });
    const echo = specNamed(hub.toolSpecs(), 'mcp_t_echo');
    const signal = new AbortController().signal;
    for (let i = 0; i < 15; i++) await callSpec(echo, { message: `${i}` }, toolContext({ signal }));
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});
