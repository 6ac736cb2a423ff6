import { describe, expect, it } from 'vitest';
import {
  HERMES_CORE_TOOLS,
  HERMES_WEBHOOK_SAFE_TOOLS,
  ToolRegistry,
  type ToolSpec,
  ToolsetCatalog,
  ToolsetError,
} from '../src/index.js';

function plainTool(name: string, toolset: string): ToolSpec {
  return {
    name,
    toolset,
    description: name,
    parameters: { type: 'object', properties: {} },
    handler: () => name,
  };
}

describe('toolset resolution', () => {
  it('expands includes depth-first without duplicates', () => {
    const catalog = new ToolsetCatalog({
      a: { description: 'a', tools: ['x', 'y'], includes: ['b', 'c'] },
      b: { description: 'b', tools: ['y', 'z'], includes: ['d'] },
      c: { description: 'c', tools: ['w'], includes: ['d'] },
      d: { description: 'd', tools: ['v'], includes: [] },
    });
    expect(catalog.resolve('a')).toEqual(['x', 'y', 'z', 'v', 'w']);
  });

  it('detects include cycles and names the cycle', () => {
    const catalog = new ToolsetCatalog({
      a: { description: 'a', tools: [], includes: ['b'] },
      b: { description: 'b', tools: [], includes: ['c'] },
      c: { description: 'c', tools: [], includes: ['a'] },
    });
    expect(() => catalog.resolve('a')).toThrow(ToolsetError);
    expect(() => catalog.resolve('a')).toThrow('Toolset include cycle: a → b → c → a');
    expect(() => catalog.resolve('b')).toThrow('b → c → a → b');
  });

  it('detects a toolset including itself', () => {
    const catalog = new ToolsetCatalog({
      self: { description: 's', tools: ['t'], includes: ['self'] },
    });
    expect(() => catalog.resolve('self')).toThrow('self → self');
  });

  it('rejects unknown toolsets, saying which toolset included them', () => {
    const catalog = new ToolsetCatalog({ a: { description: 'a', tools: [], includes: ['ghost'] } });
    expect(() => catalog.resolve('nope')).toThrow(/Unknown toolset "nope"\. Known toolsets: a/);
    expect(() => catalog.resolve('a')).toThrow('Unknown toolset "ghost" (included by "a")');
  });

  it('all and * mean every tool in every toolset plus every registered tool', () => {
    const registry = new ToolRegistry();
    registry.register(plainTool('plugin_tool', 'my_plugin'));
    const all = registry.toolsets.resolve('all');
    expect(all).toEqual(
      expect.arrayContaining([...HERMES_CORE_TOOLS, 'discord', 'video_analyze', 'plugin_tool']),
    );
    expect(new Set(registry.toolsets.resolve('*'))).toEqual(new Set(all));
  });

  it('every platform toolset shares the one core list', () => {
    const catalog = new ToolsetCatalog();
    for (const name of ['hermes-cli', 'hermes-api-server', 'hermes-telegram']) {
      expect(catalog.resolve(name)).toEqual([...HERMES_CORE_TOOLS]);
      expect(catalog.isPlatform(name)).toBe(true);
    }
    expect(catalog.resolve('hermes-discord')).toEqual([
      ...HERMES_CORE_TOOLS,
      'discord',
      'discord_admin',
    ]);
  });

  it('hermes-cron is the core list without clarify, delegate_task and cronjob (no one to ask, no fan-out, no self-scheduling)', () => {
    const catalog = new ToolsetCatalog();
    const tools = catalog.resolve('hermes-cron');
    for (const name of ['clarify', 'delegate_task', 'cronjob']) expect(tools).not.toContain(name);
    expect(tools).toEqual(
      HERMES_CORE_TOOLS.filter((t) => !['clarify', 'delegate_task', 'cronjob'].includes(t)),
    );
    expect(tools).toContain('terminal');
    expect(catalog.isPlatform('hermes-cron')).toBe(true);
  });

  it('hermes-webhook is the read-only safe subset', () => {
    const catalog = new ToolsetCatalog();
    expect(catalog.resolve('hermes-webhook')).toEqual([
      'web_search',
      'web_extract',
      'vision_analyze',
      'clarify',
    ]);
    expect(HERMES_WEBHOOK_SAFE_TOOLS).not.toContain('terminal');
    expect(catalog.resolve('hermes-webhook')).not.toContain('write_file');
  });
});

describe('the bundle-disable rule', () => {
  const catalog = new ToolsetCatalog();

  it('disabling a platform bundle removes only its non-core extras', () => {
    const tools = catalog.select(['hermes-discord'], ['hermes-discord']);
    expect(tools).toEqual([...HERMES_CORE_TOOLS]);
    expect(tools).toContain('terminal');
    expect(tools).not.toContain('discord');
  });

  it('disabling hermes-cli removes nothing, because all of it is core', () => {
    expect(catalog.select(['hermes-cli'], ['hermes-cli'])).toEqual([...HERMES_CORE_TOOLS]);
    expect([...catalog.bundleNonCoreTools('hermes-cli')]).toEqual([]);
    expect([...catalog.bundleNonCoreTools('hermes-discord')]).toEqual(['discord', 'discord_admin']);
  });

  it('disabling an ordinary toolset removes all of its tools, core or not', () => {
    const tools = catalog.select(['hermes-cli'], ['terminal', 'web']);
    expect(tools).not.toContain('terminal');
    expect(tools).not.toContain('process');
    expect(tools).not.toContain('web_search');
    expect(tools).toContain('read_file');
  });

  it('ignores unknown disabled names but rejects unknown enabled ones', () => {
    expect(catalog.select(['file'], ['no-such-set'])).toEqual([
      'read_file',
      'write_file',
      'patch',
      'search_files',
    ]);
    expect(() => catalog.select(['no-such-set'])).toThrow(/Unknown toolset/);
  });
});

describe('runtime toolsets and aliases', () => {
  it('plugins and MCP servers register toolsets and aliases, each change bumping the generation', () => {
    const registry = new ToolRegistry();
    const g0 = registry.generation;
    registry.toolsets.register('mcp-github', {
      description: 'GitHub MCP',
      tools: ['gh_issue', 'gh_pr'],
      includes: [],
    });
    expect(registry.generation).toBe(g0 + 1);
    registry.toolsets.registerAlias('github', 'mcp-github');
    expect(registry.generation).toBe(g0 + 2);
    expect(registry.toolsets.resolve('github')).toEqual(['gh_issue', 'gh_pr']);
    expect(registry.toolsets.names()).toEqual(
      expect.arrayContaining(['github', 'mcp-github', 'web']),
    );
    registry.toolsets.unregisterAlias('github');
    registry.toolsets.unregister('mcp-github');
    expect(registry.generation).toBe(g0 + 4);
    expect(() => registry.toolsets.resolve('github')).toThrow(/Unknown toolset/);
  });

  it('registry tools form toolsets by their toolset field and join built-in toolsets', () => {
    const registry = new ToolRegistry();
    registry.register(plainTool('note_add', 'notes'));
    registry.register(plainTool('web_archive', 'web'));
    expect(registry.toolsets.resolve('notes')).toEqual(['note_add']);
    expect(registry.toolsets.resolve('web')).toEqual(['web_search', 'web_extract', 'web_archive']);
    expect(registry.toolsets.resolve('web', { includeRegistry: false })).toEqual([
      'web_search',
      'web_extract',
    ]);
    expect(() => registry.toolsets.resolve('notes', { includeRegistry: false })).toThrow(
      /Unknown toolset/,
    );
  });

  it('refuses to replace a built-in toolset, bad names, bad definitions and shadowing aliases', () => {
    const catalog = new ToolsetCatalog();
    expect(() => catalog.register('web', { description: 'x', tools: [], includes: [] })).toThrow(
      /built in/,
    );
    expect(() => catalog.register('all', { description: 'x', tools: [], includes: [] })).toThrow(
      /invalid/,
    );
    expect(() =>
      catalog.register('ok', { description: 'x', tools: [3 as unknown as string], includes: [] }),
    ).toThrow(/field "tools.0"/);
    expect(() => catalog.registerAlias('web', 'file')).toThrow(/shadows/);
  });

  it('a runtime toolset may include built-in ones and be included in cycles detected across sources', () => {
    const catalog = new ToolsetCatalog();
    catalog.register('research', {
      description: 'r',
      tools: ['notes'],
      includes: ['web', 'research2'],
    });
    catalog.register('research2', { description: 'r2', tools: [], includes: ['research'] });
    expect(() => catalog.resolve('research')).toThrow('research → research2 → research');
  });
});
