import { describe, expect, it } from 'vitest';
import type { McpToolResultData } from '../src/index.js';
import { callSpec, EVERYTHING_BIN, specNamed, startHub, toolContext } from './helpers.js';

describe('server-everything over stdio', () => {
  it('lists its tools as mcp_everything_<tool> in toolset mcp-everything and calls one', async () => {
    const hub = await startHub({ everything: { command: EVERYTHING_BIN, args: ['stdio'] } });
    const [status] = hub.statuses();
    expect(status).toMatchObject({ name: 'everything', transport: 'stdio', state: 'connected' });
    expect(status?.connectMs).toBeGreaterThan(0);
    const specs = hub.toolSpecs();
    const echo = specNamed(specs, 'mcp_everything_echo');
    expect(echo.toolset).toBe('mcp-everything');
    expect(echo.parameters).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' } },
    });
    expect(specs.map((s) => s.name)).toContain('mcp_everything_get-sum');
    expect(await callSpec(echo, { message: 'hello there' })).toContain('hello there');
    expect(await callSpec(specNamed(specs, 'mcp_everything_get-sum'), { a: 2, b: 40 })).toContain(
      '42',
    );
  });

  it('describes an image result as text and says it is not shown', async () => {
    const hub = await startHub({ everything: { command: EVERYTHING_BIN, args: ['stdio'] } });
    const text = await callSpec(specNamed(hub.toolSpecs(), 'mcp_everything_get-tiny-image'), {});
    expect(text).toMatch(/\[image: image\/png, \d+ bytes; this text only describes it/);
  });

  it('hands the image itself to the host as data.images, for providers that can show it', async () => {
    const hub = await startHub({ everything: { command: EVERYTHING_BIN, args: ['stdio'] } });
    const spec = specNamed(hub.toolSpecs(), 'mcp_everything_get-tiny-image');
    const result = await spec.handler({}, toolContext());
    expect(typeof result).toBe('object');
    const data = typeof result === 'object' ? (result.data as McpToolResultData) : undefined;
    expect(data?.images).toHaveLength(1);
    expect(data?.images[0]?.mimeType).toBe('image/png');
    expect(
      Buffer.from(data?.images[0]?.data ?? '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    // A text-only result stays a plain string.
    expect(
      typeof (await specNamed(hub.toolSpecs(), 'mcp_everything_echo').handler(
        { message: 'm' },
        toolContext(),
      )),
    ).toBe('string');
  });

  it('offers the resource and prompt utilities, which list and read', async () => {
    const hub = await startHub({ everything: { command: EVERYTHING_BIN, args: ['stdio'] } });
    const specs = hub.toolSpecs();
    const listed = await callSpec(specNamed(specs, 'mcp_everything_list_resources'), {});
    expect(listed).toContain('demo://resource/');
    const uri = /demo:\/\/resource\/static\/document\/\S+/.exec(listed)?.[0];
    expect(uri).toBeDefined();
    const read = await callSpec(specNamed(specs, 'mcp_everything_read_resource'), { uri });
    expect(read).toContain(`[resource ${uri}`);
    const prompts = await callSpec(specNamed(specs, 'mcp_everything_list_prompts'), {});
    expect(prompts).toContain('args-prompt(city, state?)');
    const prompt = await callSpec(specNamed(specs, 'mcp_everything_get_prompt'), {
      name: 'args-prompt',
      arguments: { city: 'Lisbon' },
    });
    expect(prompt).toMatch(/^user: .*Lisbon/m);
  });

  it('applies tools.include and tools.exclude to the server tool names', async () => {
    const hub = await startHub({
      inc: { command: EVERYTHING_BIN, args: ['stdio'], tools: { include: ['echo', 'get-sum'] } },
      exc: { command: EVERYTHING_BIN, args: ['stdio'], tools: { exclude: ['echo'] } },
    });
    const names = hub.toolSpecs().map((s) => s.name);
    const inc = names.filter(
      (n) => n.startsWith('mcp_inc_') && !/_(list|read|get)_(resources?|prompts?)$/.test(n),
    );
    expect(inc.sort()).toEqual(['mcp_inc_echo', 'mcp_inc_get-sum']);
    expect(names).not.toContain('mcp_exc_echo');
    expect(names).toContain('mcp_exc_get-sum');
  });
});
