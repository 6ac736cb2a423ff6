import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  clearConfigStatCache,
  ToolDefinitions,
  ToolRegistry,
  type ToolSpec,
} from '../src/index.js';

function tool(name: string, toolset: string, extra: Partial<ToolSpec> = {}): ToolSpec {
  return {
    name,
    toolset,
    description: `The ${name} tool.`,
    parameters: z.object({
      path: z.string().describe('A path'),
      limit: z.number().int().optional(),
    }),
    handler: () => name,
    ...extra,
  };
}

function setup(options: ConstructorParameters<typeof ToolDefinitions>[1] = {}) {
  const registry = new ToolRegistry();
  for (const name of [
    'read_file',
    'write_file',
    'terminal',
    'web_search',
    'clarify',
    'delegate_task',
    'memory',
  ]) {
    registry.register(tool(name, 'core'));
  }
  return { registry, defs: new ToolDefinitions(registry, options) };
}

const names = (schemas: { function: { name: string } }[]) => schemas.map((s) => s.function.name);

describe('ToolDefinitions', () => {
  it('exposes the registered tools of the enabled toolsets as sanitized function schemas', async () => {
    const { defs } = setup();
    const schemas = await defs.get({ enabledToolsets: ['file'] });
    expect(names(schemas)).toEqual(['read_file', 'write_file']);
    expect(schemas[0]).toEqual({
      type: 'function',
      function: {
        name: 'read_file',
        description: 'The read_file tool.',
        parameters: {
          type: 'object',
          properties: {
            path: { type: 'string', description: 'A path' },
            limit: { type: 'integer' },
          },
          required: ['path'],
        },
      },
    });
  });

  it('defaults to hermes-cli and never lists the bridge tools directly', async () => {
    const { defs } = setup();
    const list = names(await defs.get());
    expect(list).toEqual([
      'web_search',
      'terminal',
      'read_file',
      'write_file',
      'memory',
      'clarify',
      'delegate_task',
    ]);
    expect(names(await defs.get({ enabledToolsets: ['all'] }))).not.toContain('tool_search');
  });

  it('returns a fresh array each call, with frozen schemas, so callers cannot poison the cache', async () => {
    const { defs } = setup();
    const first = await defs.get({ enabledToolsets: ['file'] });
    first.push({
      type: 'function',
      function: { name: 'memory', description: 'x', parameters: {} },
    });
    expect(() => {
      (first[0] as { function: { name: string } }).function.name = 'hacked';
    }).toThrow(TypeError);
    const second = await defs.get({ enabledToolsets: ['file'] });
    expect(second).not.toBe(first);
    expect(names(second)).toEqual(['read_file', 'write_file']);
    expect(defs.size).toBe(1);
  });

  it('keys on the set of enabled and disabled toolsets, not their order', async () => {
    const { defs } = setup();
    expect(defs.keyOf({ enabledToolsets: ['file', 'web'] })).toBe(
      defs.keyOf({ enabledToolsets: ['web', 'file', 'web'] }),
    );
    expect(defs.keyOf({ enabledToolsets: ['file'] })).not.toBe(
      defs.keyOf({ enabledToolsets: ['web'] }),
    );
    expect(defs.keyOf({ disabledToolsets: ['a', 'b'] })).toBe(
      defs.keyOf({ disabledToolsets: ['b', 'a'] }),
    );
    expect(defs.keyOf({})).not.toBe(defs.keyOf({ disabledToolsets: ['web'] }));
  });

  it('keys on scope and the child / worker / tool-search flags', () => {
    const { defs } = setup();
    const base = defs.keyOf({});
    for (const variant of [
      { scope: 'work' },
      { delegatedChild: true },
      { dispatcherWorker: true },
      { skipToolSearch: true },
      { contextLength: 8_000 },
      { schemaProfile: 'gemini' as const },
    ]) {
      expect(defs.keyOf(variant)).not.toBe(base);
    }
  });

  it('recomputes after the registry generation changes', async () => {
    const { registry, defs } = setup();
    const before = defs.keyOf({ enabledToolsets: ['file'] });
    expect(names(await defs.get({ enabledToolsets: ['file'] }))).not.toContain('patch');
    registry.register(tool('patch', 'file'));
    expect(defs.keyOf({ enabledToolsets: ['file'] })).not.toBe(before);
    expect(names(await defs.get({ enabledToolsets: ['file'] }))).toContain('patch');
  });

  it('recomputes when config.yaml changes (mtime and size in the key)', async () => {
    const { defs } = setup();
    const configPath = join(process.env.HERMES_HOME ?? '', 'config.yaml');
    const missing = defs.keyOf({ configPath });
    writeFileSync(configPath, 'toolsets: [hermes-cli]\n');
    utimesSync(configPath, 1_000, 1_000);
    // Stats are trusted for CONFIG_STAT_TTL_MS; forget them to look again at once.
    clearConfigStatCache();
    const written = defs.keyOf({ configPath });
    expect(written).not.toBe(missing);
    utimesSync(configPath, 2_000, 2_000);
    expect(defs.keyOf({ configPath })).toBe(written); // within the TTL: no new stat
    clearConfigStatCache();
    expect(defs.keyOf({ configPath })).not.toBe(written);
    expect(defs.keyOf({ configFingerprint: 'v1' })).not.toBe(
      defs.keyOf({ configFingerprint: 'v2' }),
    );
  });

  it('remembers at most 8 configurations by default', async () => {
    const { defs } = setup();
    for (let i = 0; i < 12; i++) await defs.get({ scope: `s${i}` });
    expect(defs.size).toBe(8);
  });

  it('serves repeated requests from the cache without recomputing', async () => {
    const { registry, defs } = setup({ checkTtlMs: 0 });
    let checks = 0;
    registry.register(
      tool('probe', 'probe', {
        checkFn: () => {
          checks++;
          return true;
        },
      }),
    );
    await defs.get({ enabledToolsets: ['probe'] });
    await defs.get({ enabledToolsets: ['probe'] });
    await defs.resolve({ enabledToolsets: ['probe'] });
    expect(checks).toBe(1);
  });

  it('evicts first-in first-out, not least-recently-used', async () => {
    // A zero TTL makes every computation run checkFn, so `checks` counts cache misses.
    const { registry, defs } = setup({ maxEntries: 2, checkTtlMs: 0 });
    let checks = 0;
    registry.register(
      tool('probe', 'probe', {
        checkFn: () => {
          checks++;
          return true;
        },
      }),
    );
    const get = (scope: string) => defs.get({ enabledToolsets: ['probe'], scope });
    await get('a');
    await get('b');
    await get('a');
    expect(checks).toBe(2);
    await get('c'); // evicts "a", the oldest insertion, although it was used last
    expect(checks).toBe(3);
    await get('b');
    expect(checks).toBe(3);
    await get('a');
    expect(checks).toBe(4);
  });

  it('caches checkFn results for 30 seconds on the injected clock', async () => {
    let now = 1_000_000;
    let available = true;
    let calls = 0;
    const { registry, defs } = setup({ now: () => now });
    registry.register(
      tool('browser_navigate', 'browser', {
        checkFn: async () => {
          calls++;
          return available;
        },
      }),
    );
    const req = (scope: string) => ({ enabledToolsets: ['browser'], scope });
    expect(names(await defs.get(req('a')))).toEqual(['browser_navigate']);
    available = false;
    now += 29_000;
    expect(names(await defs.get(req('b')))).toEqual(['browser_navigate']);
    expect(calls).toBe(1);
    now += 2_000;
    expect(names(await defs.get(req('c')))).toEqual([]);
    expect(calls).toBe(2);
  });

  it('drops tools whose checkFn throws and tools missing requiresEnv variables', async () => {
    const env: Record<string, string | undefined> = {};
    const { registry, defs } = setup({ env });
    registry.register(tool('ha_get_state', 'homeassistant', { requiresEnv: ['HASS_TOKEN'] }));
    registry.register(
      tool('ha_list_entities', 'homeassistant', {
        checkFn: () => {
          throw new Error('boom');
        },
      }),
    );
    expect(names(await defs.get({ enabledToolsets: ['homeassistant'] }))).toEqual([]);
    env.HASS_TOKEN = 'set';
    defs.clear();
    expect(names(await defs.get({ enabledToolsets: ['homeassistant'] }))).toEqual(['ha_get_state']);
  });

  it('a delegated child loses the delegate-blocked tools; a worker gains kanban', async () => {
    const { registry, defs } = setup();
    registry.register(tool('kanban_show', 'kanban'));
    const child = names(await defs.get({ delegatedChild: true }));
    expect(child).not.toContain('delegate_task');
    expect(child).not.toContain('clarify');
    expect(child).not.toContain('memory');
    expect(child).toContain('terminal');
    expect(names(await defs.get({ enabledToolsets: ['file'] }))).not.toContain('kanban_show');
    expect(names(await defs.get({ enabledToolsets: ['file'], dispatcherWorker: true }))).toContain(
      'kanban_show',
    );
  });

  it('applies the schema profile', async () => {
    const { registry, defs } = setup();
    registry.register(
      tool('vision_analyze', 'vision', { parameters: z.object({ url: z.string().nullable() }) }),
    );
    const [gemini] = await defs.get({ enabledToolsets: ['vision'], schemaProfile: 'gemini' });
    expect(gemini?.function.parameters).toEqual({
      type: 'object',
      properties: { url: { type: 'string', nullable: true } },
      required: ['url'],
    });
  });

  it('rejects an unknown enabled toolset with a clear error', async () => {
    const { defs } = setup();
    await expect(defs.get({ enabledToolsets: ['nope'] })).rejects.toThrow(/Unknown toolset "nope"/);
  });
});
