/**
 * Loading plugins for real: folders written into the test's HERMES_HOME, imported by Node with
 * the SDK resolved to the host's copy, each failure reported and skipped.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as sdk from '@hermes/plugin-sdk';
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

function recordingLogger() {
  const warnings: string[] = [];
  const infos: string[] = [];
  return {
    warnings,
    infos,
    logger: {
      info: (m: string) => infos.push(m),
      warn: (m: string) => warnings.push(m),
      error: (m: string) => warnings.push(m),
    },
  };
}

function load(section: PluginsSectionInput, extra: Partial<LoadPluginsOptions> = {}) {
  return loadPlugins({
    hermesHome: home(),
    env: {},
    config: PluginsSectionSchema.parse(section),
    registerTimeoutMs: 5_000,
    ...extra,
  });
}

describe('loadPlugins: selection', () => {
  it('loads only what plugins.enabled names (by name or alias); disabled wins', async () => {
    writePlugin(
      userDir('one'),
      esmPlugin('hermes-plugin-one', `ctx.registerTool(${toolSource('one')});`),
    );
    writePlugin(userDir('two'), esmPlugin('@acme/two', `ctx.registerTool(${toolSource('two')});`));
    writePlugin(userDir('three'), esmPlugin('three', `ctx.registerTool(${toolSource('three')});`));
    writePlugin(userDir('four'), esmPlugin('four', `ctx.registerTool(${toolSource('four')});`));
    const loaded = await load({
      enabled: ['one', 'two', 'four'],
      disabled: ['four'],
    });
    const states = Object.fromEntries(loaded.statuses.map((s) => [s.name, [s.enabled, s.state]]));
    expect(states).toEqual({
      'hermes-plugin-one': [true, 'loaded'],
      '@acme/two': [true, 'loaded'],
      three: [false, 'not_enabled'],
      four: [false, 'disabled'],
    });
    expect(loaded.tools.map((t) => [t.tool.schema.function.name, t.toolset, t.plugin])).toEqual([
      ['one', 'one', 'hermes-plugin-one'],
      ['two', 'two', '@acme/two'],
    ]);
    expect(
      await loaded.tools[0]?.tool.handler(
        {},
        { sessionId: 's', signal: new AbortController().signal },
      ),
    ).toBe('one');
    const one = loaded.statuses.find((s) => s.name === 'hermes-plugin-one');
    expect(one).toMatchObject({ version: '1.0.0', source: 'user', registered: { tools: ['one'] } });
  });

  it('a selected memory provider or context engine enables its plugin, unless disabled', async () => {
    const memory = `ctx.registerMemoryProvider({ name: 'deep', create: () => ({ name: 'deep' }) });`;
    writePlugin(userDir('mem'), {
      ...esmPlugin('mem', memory),
      pkg: {
        name: 'mem',
        main: 'index.mjs',
        hermes: { kind: 'memory', provides: { memoryProviders: ['deep'] } },
      },
    });
    const engine = `ctx.registerContextEngine({ name: 'lcm', create: (init) => ({ name: 'lcm', init }) });`;
    writePlugin(userDir('eng'), {
      ...esmPlugin('eng', engine),
      pkg: {
        name: 'eng',
        main: 'index.mjs',
        hermes: { kind: 'context-engine', provides: { contextEngines: ['lcm'] } },
      },
    });
    const none = await load({});
    expect(none.statuses.map((s) => s.state)).toEqual(['not_enabled', 'not_enabled']);
    expect(none.availableStrategies).toEqual({
      memoryProviders: ['deep'],
      contextEngines: ['lcm'],
    });

    const chosen = await load({}, { select: { memoryProvider: 'deep', contextEngine: 'lcm' } });
    expect(chosen.statuses.map((s) => [s.name, s.enabled, s.state])).toEqual([
      ['eng', true, 'loaded'],
      ['mem', true, 'loaded'],
    ]);
    expect(chosen.memoryProviders.get('deep')?.plugin).toBe('mem');
    expect(chosen.memoryProviders.get('deep')?.create()).toEqual({ name: 'deep' });
    const init = { contextLength: 1000, model: 'm', hermesHome: home() };
    expect(chosen.contextEngines.get('lcm')?.create(init)).toEqual({ name: 'lcm', init });
    expect(chosen.availableStrategies).toEqual({ memoryProviders: [], contextEngines: [] });

    const refused = await load({ disabled: ['mem'] }, { select: { memoryProvider: 'deep' } });
    expect(refused.statuses.find((s) => s.name === 'mem')?.state).toBe('disabled');
    expect(refused.memoryProviders.size).toBe(0);
  });

  it('only: { command } loads just the enabled plugin providing that command', async () => {
    const command = (name: string) =>
      `ctx.registerCommand({ name: '${name}', description: 'd', run: () => 0 });`;
    writePlugin(userDir('a'), {
      ...esmPlugin('a', command('alpha')),
      pkg: { name: 'a', main: 'index.mjs', hermes: { provides: { commands: ['alpha'] } } },
    });
    writePlugin(userDir('b'), {
      pkg: { name: 'b', main: 'index.mjs', hermes: { provides: { commands: ['beta'] } } },
      files: { 'index.mjs': "throw new Error('b must not be imported');\n" },
    });
    const loaded = await load({ enabled: ['a', 'b'] }, { only: { command: 'alpha' } });
    expect(loaded.statuses.map((s) => [s.name, s.state])).toEqual([
      ['a', 'loaded'],
      ['b', 'not_enabled'],
    ]);
    expect([...loaded.commands.keys()]).toEqual(['alpha']);
    expect(await loaded.commands.get('alpha')?.command.run([])).toBe(0);
  });

  it('imports nothing when nothing is enabled: a throwing entry stays not_enabled, silently', async () => {
    writePlugin(userDir('boom'), {
      pkg: { name: 'boom', main: 'index.mjs' },
      files: { 'index.mjs': "throw new Error('imported!');\n" },
    });
    const { warnings, logger } = recordingLogger();
    const loaded = await load({}, { logger });
    expect(loaded.statuses).toMatchObject([{ name: 'boom', enabled: false, state: 'not_enabled' }]);
    expect(warnings).toEqual([]);
    // …and enabling it shows the entry would indeed have thrown.
    const enabled = await load({ enabled: ['boom'] }, { logger });
    expect(enabled.statuses[0]).toMatchObject({
      state: 'failed',
      message: 'the entry threw: imported!',
    });
  });
});

describe('loadPlugins: the SDK is the host copy', () => {
  it('an ESM plugin with no node_modules imports @hermes/plugin-sdk and gets the host copy', async () => {
    writePlugin(
      userDir('hello'),
      esmPlugin(
        'hello',
        `ctx.registerTool({ ...${toolSource('hello')}, handler: () => String(ContextEngine === globalThis.__hostSdk.ContextEngine) });`,
        "import { ContextEngine } from '@hermes/plugin-sdk';",
      ),
    );
    expect(existsSync(join(userDir('hello'), 'node_modules'))).toBe(false);
    (globalThis as Record<string, unknown>).__hostSdk = sdk;
    const loaded = await load({ enabled: ['hello'] });
    expect(loaded.statuses[0]?.state).toBe('loaded');
    const ctx = { sessionId: 's', signal: new AbortController().signal };
    expect(await loaded.tools[0]?.tool.handler({}, ctx)).toBe('true');
  });

  it('a CommonJS plugin require()s the same object', async () => {
    writePlugin(userDir('cjs'), {
      pkg: { name: 'cjs', main: 'index.cjs' },
      files: {
        'index.cjs': `const sdk = require('@hermes/plugin-sdk');
module.exports = sdk.definePlugin({
  manifest: { name: 'cjs', version: '1.0.0' },
  register(ctx) {
    ctx.registerTool({
      schema: { type: 'function', function: { name: 'cjs_same', description: 'd', parameters: { type: 'object' } } },
      handler: () => String(sdk.ContextEngine === globalThis.__hostSdkNs.ContextEngine),
    });
  },
});
`,
      },
    });
    (globalThis as Record<string, unknown>).__hostSdkNs = sdk;
    const loaded = await load({ enabled: ['cjs'] });
    expect(loaded.statuses[0]).toMatchObject({
      state: 'loaded',
      registered: { tools: ['cjs_same'] },
    });
    const ctx = { sessionId: 's', signal: new AbortController().signal };
    expect(await loaded.tools[0]?.tool.handler({}, ctx)).toBe('true');
  });

  it('an npm-style scoped package and a project plugin load; loading twice in one process works', async () => {
    writePlugin(
      join(home(), 'plugins', 'node_modules', '@scope', 'x'),
      esmPlugin('@scope/x', `ctx.registerTool(${toolSource('x_tool')});`),
    );
    const cwd = mkdtempSync(join(tmpdir(), 'project-'));
    writePlugin(
      join(cwd, '.hermes', 'plugins', 'proj'),
      esmPlugin('proj', `ctx.registerTool(${toolSource('proj_tool')});`),
    );
    const env = { HERMES_ENABLE_PROJECT_PLUGINS: '1' };
    const first = await load({ enabled: ['x', 'proj'] }, { cwd, env });
    expect(first.statuses.map((s) => [s.name, s.source, s.state])).toEqual([
      ['@scope/x', 'npm', 'loaded'],
      ['proj', 'project', 'loaded'],
    ]);
    const gated = await load({ enabled: ['x', 'proj'] }, { cwd, env: {} });
    expect(gated.statuses.map((s) => s.name)).toEqual(['@scope/x']);
    // A second load in the same process registers again into a fresh context.
    const second = await load({ enabled: ['@scope/x', 'proj'] }, { cwd, env });
    expect(second.tools.map((t) => t.tool.schema.function.name)).toEqual(['x_tool', 'proj_tool']);
    // A plugin folder added after the first load gets the SDK too.
    writePlugin(
      userDir('late'),
      esmPlugin('late', `ctx.registerTool(${toolSource('late_tool')});`),
    );
    const third = await load({ enabled: ['late', 'x'] });
    expect(third.statuses.map((s) => [s.name, s.state])).toEqual([
      ['late', 'loaded'],
      ['@scope/x', 'loaded'],
    ]);
  });
});

describe('loadPlugins: failures are reported once and skipped', () => {
  it('requiresEnv unset → missing_env naming the variables; set → loaded', async () => {
    writePlugin(userDir('needs'), {
      ...esmPlugin('needs', `ctx.registerTool(${toolSource('needs')});`),
      pkg: { name: 'needs', main: 'index.mjs', hermes: { requiresEnv: ['NEEDS_A', 'NEEDS_B'] } },
    });
    const { warnings, logger } = recordingLogger();
    const missing = await load(
      { enabled: ['needs'] },
      { env: { NEEDS_A: 'x', NEEDS_B: '' }, logger },
    );
    expect(missing.statuses[0]).toMatchObject({ state: 'missing_env', message: 'needs NEEDS_B' });
    expect(warnings).toEqual(['plugin needs not loaded (missing_env): needs NEEDS_B']);
    const set = await load({ enabled: ['needs'] }, { env: { NEEDS_A: 'x', NEEDS_B: 'y' } });
    expect(set.statuses[0]?.state).toBe('loaded');
  });

  it('a minVersion above the host’s plugin API → incompatible, naming both; nothing of it runs', async () => {
    const needed = `${Number(sdk.SDK_VERSION.split('.')[0]) + 1}.0.0`;
    // Declared in package.json: the entry is never imported (importing it would throw).
    writePlugin(userDir('future-pkg'), {
      pkg: { name: 'future-pkg', main: 'index.mjs', hermes: { minVersion: needed } },
      files: { 'index.mjs': "throw new Error('imported despite its minVersion');\n" },
    });
    // Declared only in the code's manifest: imported, but register never runs.
    const marker = join(home(), 'registered-anyway');
    writePlugin(userDir('future-code'), {
      pkg: { name: 'future-code', main: 'index.mjs' },
      files: {
        'index.mjs': `import { writeFileSync } from 'node:fs';
import { definePlugin } from '@hermes/plugin-sdk';
export default definePlugin({
  manifest: { name: 'future-code', version: '1.0.0', hermes: { minVersion: '${needed}' } },
  async register() { writeFileSync(${JSON.stringify(marker)}, 'x'); },
});
`,
      },
    });
    writePlugin(userDir('current'), {
      ...esmPlugin('current', `ctx.registerTool(${toolSource('current')});`),
      pkg: { name: 'current', main: 'index.mjs', hermes: { minVersion: sdk.SDK_VERSION } },
    });
    const { warnings, logger } = recordingLogger();
    const loaded = await load({ enabled: ['future-pkg', 'future-code', 'current'] }, { logger });
    const message = `needs Hermes plugin API ${needed} or newer, this host has ${sdk.SDK_VERSION}: upgrade Hermes, or install a version of the plugin made for ${sdk.SDK_VERSION}`;
    expect(loaded.statuses.map((s) => [s.name, s.state, s.message])).toEqual([
      ['current', 'loaded', undefined],
      ['future-code', 'incompatible', message],
      ['future-pkg', 'incompatible', message],
    ]);
    expect(existsSync(marker)).toBe(false);
    expect(loaded.tools.map((t) => t.plugin)).toEqual(['current']);
    expect(warnings).toContain(`plugin future-pkg not loaded (incompatible): ${message}`);
  });

  it('each failure state, while the other plugins still load', async () => {
    writePlugin(userDir('good'), esmPlugin('good', `ctx.registerTool(${toolSource('good')});`));
    writePlugin(userDir('entry-throws'), {
      pkg: { name: 'entry-throws', main: 'index.mjs' },
      files: { 'index.mjs': "throw new Error('bad entry');\n" },
    });
    writePlugin(
      userDir('register-throws'),
      esmPlugin(
        'register-throws',
        `ctx.registerTool(${toolSource('partial')}); ctx.registerHook('preLlmCall', () => ({ context: 'x' })); throw new Error('bad register');`,
      ),
    );
    writePlugin(
      userDir('hangs'),
      esmPlugin('hangs', `ctx.registerTool(${toolSource('hung')}); await new Promise(() => {});`),
    );
    writePlugin(userDir('not-plugin'), {
      pkg: { name: 'not-plugin', main: 'index.mjs' },
      files: { 'index.mjs': 'export default { manifest: {}, register() {} };\n' },
    });
    writePlugin(userDir('bad-manifest'), {
      pkg: { name: 'bad-manifest', main: 'index.mjs', hermes: { kind: 'nonsense' } },
      files: { 'index.mjs': '' },
    });
    const { warnings, logger } = recordingLogger();
    const loaded = await load(
      {
        enabled: ['good', 'entry-throws', 'register-throws', 'hangs', 'not-plugin', 'bad-manifest'],
      },
      { logger, registerTimeoutMs: 200 },
    );
    const byName = Object.fromEntries(loaded.statuses.map((s) => [s.name, s]));
    expect(byName.good?.state).toBe('loaded');
    expect(byName['entry-throws']).toMatchObject({
      state: 'failed',
      message: 'the entry threw: bad entry',
    });
    expect(byName['register-throws']).toMatchObject({
      state: 'failed',
      message: 'register() threw: bad register',
      registered: { tools: [], hooks: [] },
    });
    expect(byName.hangs).toMatchObject({
      state: 'timed_out',
      message: 'register() took over 200 ms',
    });
    expect(byName['not-plugin']).toMatchObject({
      state: 'invalid',
      message: 'the default export is not a definePlugin() plugin',
    });
    expect(byName['bad-manifest']?.state).toBe('invalid');
    expect(byName['bad-manifest']?.message).toMatch(/hermes\.kind/);
    // Partial registrations of the failed ones are discarded.
    expect(loaded.tools.map((t) => t.tool.schema.function.name)).toEqual(['good']);
    expect(loaded.hooks.isEmpty).toBe(true);
    // One warning per problem, each naming the plugin.
    expect(warnings).toHaveLength(5);
    for (const name of ['entry-throws', 'register-throws', 'hangs', 'not-plugin', 'bad-manifest']) {
      expect(warnings.filter((w) => w.includes(`plugin ${name} `))).toHaveLength(1);
    }
  });

  it('an entry whose import never finishes → timed_out', async () => {
    writePlugin(userDir('slow-import'), {
      pkg: { name: 'slow-import', main: 'index.mjs' },
      files: { 'index.mjs': 'await new Promise(() => {});\nexport default 1;\n' },
    });
    const loaded = await load({ enabled: ['slow-import'] }, { registerTimeoutMs: 200 });
    expect(loaded.statuses[0]).toMatchObject({
      state: 'timed_out',
      message: 'importing the entry took over 200 ms',
    });
  });

  it('an invalid folder not enabled is listed but not logged', async () => {
    writePlugin(userDir('broken'), { pkg: { name: 'broken', hermes: { kind: 1 } } });
    const { warnings, logger } = recordingLogger();
    const loaded = await load({}, { logger });
    expect(loaded.statuses).toMatchObject([{ name: 'broken', enabled: false, state: 'invalid' }]);
    expect(warnings).toEqual([]);
  });
});
