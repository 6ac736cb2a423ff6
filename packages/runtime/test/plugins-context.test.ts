/**
 * The host's PluginContext, exercised by real plugins: tool clashes and overrides, toolsets,
 * storage, config, hooks, commands, platforms, strategies, the logger and late calls.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type LoadPluginsOptions,
  loadPlugins,
  type PluginsSectionInput,
  PluginsSectionSchema,
} from '../src/index.js';
import { esmPlugin, toolSource, writePlugin } from './fixtures/plugins/write-plugin.js';

const home = (): string => process.env.HERMES_HOME as string;
const userDir = (folder: string): string => join(home(), 'plugins', folder);
const toolCtx = () => ({ sessionId: 's', signal: new AbortController().signal });

function load(section: PluginsSectionInput, extra: Partial<LoadPluginsOptions> = {}) {
  const lines: string[] = [];
  const logger = {
    info: (m: string) => lines.push(`info ${m}`),
    warn: (m: string) => lines.push(`warn ${m}`),
    error: (m: string) => lines.push(`error ${m}`),
    debug: (m: string) => lines.push(`debug ${m}`),
  };
  const loaded = loadPlugins({
    hermesHome: home(),
    env: {},
    config: PluginsSectionSchema.parse(section),
    logger,
    ...extra,
  });
  return { loaded, lines };
}

describe('PluginContext.registerTool', () => {
  it('a clash with a built-in is skipped unless override: true and allow_override', async () => {
    writePlugin(
      userDir('clash'),
      esmPlugin(
        'clash',
        `ctx.registerTool(${toolSource('terminal', 'plain')});
         ctx.registerTool({ ...${toolSource('read_file', 'mine')}, override: true });
         ctx.registerTool(${toolSource('fresh')});`,
      ),
    );
    const builtinToolNames = new Set(['terminal', 'read_file']);
    const denied = load({ enabled: ['clash'] }, { builtinToolNames });
    const first = await denied.loaded;
    expect(first.tools.map((t) => t.tool.schema.function.name)).toEqual(['fresh']);
    expect(first.statuses[0]?.state).toBe('loaded');
    expect(first.statuses[0]?.message).toBe(
      'tool "terminal" skipped: clashes with a built-in tool (set override: true to replace it); ' +
        'tool "read_file" skipped: replacing a built-in tool needs "clash" in plugins.allow_override',
    );
    expect(denied.lines.filter((l) => l.startsWith('warn [plugin clash] tool'))).toHaveLength(2);

    const allowed = await load(
      { enabled: ['clash'], allow_override: ['clash'] },
      { builtinToolNames },
    ).loaded;
    expect(allowed.tools.map((t) => [t.tool.schema.function.name, t.replacesBuiltin])).toEqual([
      ['read_file', true],
      ['fresh', false],
    ]);
  });

  it("another plugin's tool: skipped, or replaced when the later plugin may override", async () => {
    writePlugin(
      userDir('a'),
      esmPlugin('a', `ctx.registerTool(${toolSource('shared', 'from a')});`),
    );
    writePlugin(
      userDir('b'),
      esmPlugin('b', `ctx.registerTool({ ...${toolSource('shared', 'from b')}, override: true });`),
    );
    const denied = await load({ enabled: ['a', 'b'] }).loaded;
    expect(denied.tools.map((t) => t.plugin)).toEqual(['a']);
    expect(denied.statuses[1]?.message).toMatch(
      /replacing plugin a's tool needs "b" in plugins\.allow_override/,
    );
    const allowed = await load({ enabled: ['a', 'b'], allow_override: ['b'] }).loaded;
    expect(allowed.tools.map((t) => [t.plugin, t.replacesBuiltin])).toEqual([['b', false]]);
    expect(await allowed.tools[0]?.tool.handler({}, toolCtx())).toBe('from b');
  });

  it('checks names and handlers; the toolset defaults to the short name', async () => {
    writePlugin(
      userDir('tools'),
      esmPlugin(
        '@acme/hermes-plugin-tools',
        `ctx.registerTool(${toolSource('bad name!')});
         ctx.registerTool({ schema: { type: 'function', function: { name: 'nohandler' } } });
         ctx.registerTool(${toolSource('twice')});
         ctx.registerTool(${toolSource('twice')});
         ctx.registerTool({ ...${toolSource('own_set')}, toolset: 'mine' });`,
      ),
    );
    const loaded = await load({ enabled: ['tools'] }).loaded;
    expect(loaded.tools.map((t) => [t.tool.schema.function.name, t.toolset])).toEqual([
      ['twice', 'tools'],
      ['own_set', 'mine'],
    ]);
    expect(loaded.statuses[0]?.message?.split('; ')).toEqual([
      'tool "bad name!" skipped: use 1-64 letters, digits, "_" or "-"',
      'tool "nohandler" skipped: no handler',
      'tool "twice" skipped: registered twice',
    ]);
  });
});

describe('PluginContext: storage, config, logger, late calls', () => {
  it('storage.dir exists before register; storage.path refuses to leave it', async () => {
    writePlugin(
      join(home(), 'plugins', 'node_modules', '@scope', 'store'),
      esmPlugin(
        '@scope/store',
        `const results = {
           dir: ctx.storage.dir,
           existed: existsSync(ctx.storage.dir),
           inside: ctx.storage.path('a/b.txt'),
         };
         for (const bad of ['../escape', '/etc/passwd', 'a/../../x']) {
           try { ctx.storage.path(bad); results[bad] = 'allowed'; } catch (e) { results[bad] = e.message; }
         }
         globalThis.__storageResults = results;`,
        "import { existsSync } from 'node:fs';",
      ),
    );
    const loaded = await load({ enabled: ['@scope/store'] }).loaded;
    expect(loaded.statuses[0]?.state).toBe('loaded');
    const results = (globalThis as Record<string, unknown>).__storageResults as Record<
      string,
      string
    >;
    const dir = join(home(), 'plugin-data', '@scope__store');
    expect(results.dir).toBe(dir);
    expect(results.existed).toBe(true);
    expect(results.inside).toBe(join(dir, 'a', 'b.txt'));
    for (const bad of ['../escape', '/etc/passwd', 'a/../../x']) {
      expect(results[bad]).toMatch(/leaves the plugin's folder/);
    }
    expect(existsSync(dir)).toBe(true);
  });

  it('config is plugins.config.<name or alias>, or {}; the logger prefixes the name', async () => {
    const body = `globalThis.__configs ??= {}; globalThis.__configs[ctx.name] = ctx.config;
      ctx.logger.info('hello', { n: 1 }); ctx.logger.debug('dbg'); ctx.logger.warn('careful');`;
    writePlugin(userDir('byname'), esmPlugin('@x/byname', body));
    writePlugin(userDir('byalias'), esmPlugin('byalias-pkg', body));
    writePlugin(userDir('none'), esmPlugin('none', body));
    const { loaded, lines } = load({
      enabled: ['@x/byname', 'byalias', 'none'],
      config: { '@x/byname': { a: 1 }, byalias: { b: [2] } },
    });
    await loaded;
    expect((globalThis as Record<string, unknown>).__configs).toEqual({
      '@x/byname': { a: 1 },
      'byalias-pkg': { b: [2] },
      none: {},
    });
    expect(lines).toContain('info [plugin @x/byname] hello {"n":1}');
    expect(lines).toContain('debug [plugin none] dbg');
    expect(lines).toContain('warn [plugin byalias-pkg] careful');
  });

  it('calls after register() finished are reported and ignored', async () => {
    writePlugin(
      userDir('late'),
      esmPlugin('late', `globalThis.__lateCtx = ctx; ctx.registerTool(${toolSource('early')});`),
    );
    const { loaded, lines } = load({ enabled: ['late'] });
    const result = await loaded;
    const ctx = (globalThis as Record<string, unknown>).__lateCtx as {
      registerTool(t: unknown): void;
      registerCommand(c: unknown): void;
    };
    ctx.registerTool({
      schema: { type: 'function', function: { name: 'later' } },
      handler: () => '',
    });
    ctx.registerCommand({ name: 'later', description: '', run: () => 0 });
    expect(result.tools.map((t) => t.tool.schema.function.name)).toEqual(['early']);
    expect(result.commands.size).toBe(0);
    expect(lines).toContain(
      'warn [plugin late] registerTool called after register() finished: ignored',
    );
    expect(lines).toContain(
      'warn [plugin late] registerCommand called after register() finished: ignored',
    );
  });
});

describe('PluginContext: hooks, commands, platforms, strategies', () => {
  it('registerHook takes the ten hook names only; a bad timeoutMs is ignored', async () => {
    writePlugin(
      userDir('hooks'),
      esmPlugin(
        'hooks',
        `ctx.registerHook('preToolCall', () => undefined, { timeoutMs: 50 });
         ctx.registerHook('onEverything', () => undefined);
         ctx.registerHook('sessionEnd', 'not a function');
         ctx.registerHook('postApproval', () => undefined, { timeoutMs: -1 });`,
      ),
    );
    const loaded = await load({ enabled: ['hooks'] }).loaded;
    expect(loaded.statuses[0]?.registered.hooks).toEqual(['preToolCall', 'postApproval']);
    expect(loaded.statuses[0]?.message?.split('; ')).toEqual([
      'hook "onEverything" skipped: no such hook',
      'hook "sessionEnd" skipped: not a function',
      'hook "postApproval": timeoutMs ignored (not > 0)',
    ]);
    expect(loaded.hooks.has('preToolCall')).toBe(true);
    expect(loaded.hooks.has('sessionEnd')).toBe(false);
  });

  it('commands must be one lower-case word and unique; platforms unique', async () => {
    const cmd = (name: string) =>
      `ctx.registerCommand({ name: '${name}', description: 'd', run: (a) => a.length });`;
    writePlugin(
      userDir('c1'),
      esmPlugin(
        'c1',
        `${cmd('greet')} ${cmd('Bad Name')} ctx.registerPlatform('matrix', () => ({}));`,
      ),
    );
    writePlugin(
      userDir('c2'),
      esmPlugin(
        'c2',
        `${cmd('greet')} ${cmd('other')} ctx.registerPlatform('matrix', () => ({}));
         ctx.registerPlatform('irc', () => ({ irc: true })); ctx.registerPlatform('Bad!', () => ({}));`,
      ),
    );
    const loaded = await load({ enabled: ['c1', 'c2'] }).loaded;
    expect([...loaded.commands].map(([n, c]) => [n, c.plugin])).toEqual([
      ['greet', 'c1'],
      ['other', 'c2'],
    ]);
    expect(await loaded.commands.get('greet')?.command.run(['x', 'y'])).toBe(2);
    expect([...loaded.platforms].map(([n, p]) => [n, p.plugin])).toEqual([
      ['matrix', 'c1'],
      ['irc', 'c2'],
    ]);
    expect(await loaded.platforms.get('irc')?.create({})).toEqual({ irc: true });
    expect(loaded.statuses[0]?.message).toBe('command "Bad Name" skipped: use one lower-case word');
    expect(loaded.statuses[1]?.message?.split('; ')).toEqual([
      'command "greet" skipped: already registered by c1',
      'platform "matrix" skipped: already registered by c1',
      'platform "Bad!" skipped: use a lower-case name',
    ]);
  });

  it('a strategy instance is shared, a factory makes one per agent, a malformed one is skipped', async () => {
    writePlugin(
      userDir('strat'),
      esmPlugin(
        'strat',
        `class Shared extends MemoryProvider {
           name = 'shared';
           async initialize() {} async prefetch() { return ''; } async syncTurn() {} async shutdown() {}
         }
         ctx.registerMemoryProvider(new Shared());
         ctx.registerMemoryProvider({ name: 'fresh', create: () => ({ made: Math.random() }) });
         ctx.registerMemoryProvider({ name: 'broken' });
         ctx.registerContextEngine({ create: () => ({}) });`,
        "import { MemoryProvider } from '@hermes/plugin-sdk';",
      ),
    );
    const loaded = await load({ enabled: ['strat'] }).loaded;
    const shared = loaded.memoryProviders.get('shared');
    expect(shared?.create()).toBe(shared?.create());
    const fresh = loaded.memoryProviders.get('fresh');
    expect(fresh?.create()).not.toBe(fresh?.create());
    expect([...loaded.memoryProviders.keys()]).toEqual(['shared', 'fresh']);
    expect(loaded.contextEngines.size).toBe(0);
    expect(loaded.statuses[0]?.message?.split('; ')).toEqual([
      'memory provider "broken" is neither an instance (initialize, prefetch, syncTurn, shutdown) nor a factory (create): skipped',
      'context engine has no name: skipped',
    ]);
  });
});
