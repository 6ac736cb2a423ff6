/** Plugin discovery: sources, precedence, aliases, the package.json checks and entry lookup. */
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverPlugins } from '../src/index.js';
import { writePlugin } from './fixtures/plugins/write-plugin.js';

const home = (): string => process.env.HERMES_HOME as string;
const real = (path: string): string => realpathSync(path);
const entry = { files: { 'index.js': 'export default 1;\n' } };

describe('discoverPlugins', () => {
  it('finds user, npm (scoped too) and bundled plugins; later sources win by name', async () => {
    const bundled = writePlugin(join(mkdtempSync(join(tmpdir(), 'bundled-')), 'same'), {
      pkg: { name: 'same', version: '0.1.0' },
      ...entry,
    });
    writePlugin(join(home(), 'plugins', 'same-folder'), {
      pkg: { name: 'same', version: '0.2.0' },
      ...entry,
    });
    writePlugin(join(home(), 'plugins', 'hello'), {
      pkg: { name: 'hermes-plugin-hello' },
      ...entry,
    });
    writePlugin(join(home(), 'plugins', 'node_modules', '@acme', 'x'), {
      pkg: { name: '@acme/x', description: 'the x' },
      ...entry,
    });
    writePlugin(join(home(), 'plugins', 'node_modules', 'same'), {
      pkg: { name: 'same', version: '0.3.0' },
      ...entry,
    });
    const { plugins, problems } = await discoverPlugins({
      hermesHome: home(),
      bundledDirs: [bundled],
      env: {},
    });
    expect(problems).toEqual([]);
    expect(plugins.map((p) => [p.name, p.source, p.version])).toEqual([
      ['hermes-plugin-hello', 'user', '1.0.0'],
      ['@acme/x', 'npm', '1.0.0'],
      ['same', 'npm', '0.3.0'],
    ]);
    const acme = plugins.find((p) => p.name === '@acme/x');
    expect(acme?.aliases).toEqual(['x']);
    expect(acme?.description).toBe('the x');
    expect(acme?.dir).toBe(real(join(home(), 'plugins', 'node_modules', '@acme', 'x')));
    expect(acme?.entry).toBe(join(acme?.dir ?? '', 'index.js'));
    expect(plugins[0]?.aliases).toEqual(['hello']);
    expect(plugins[0]?.manifest).toEqual({ kind: 'general', requiresEnv: [], provides: {} });
  });

  it('answers to its short name whatever folder it is installed in', async () => {
    const bundled = writePlugin(
      join(mkdtempSync(join(tmpdir(), 'bundled-')), 'plugin-platform-x'),
      { pkg: { name: '@hermes/plugin-platform-x' }, ...entry },
    );
    const { plugins } = await discoverPlugins({ hermesHome: home(), bundledDirs: [bundled] });
    expect(plugins[0]?.aliases).toEqual(['plugin-platform-x', 'platform-x']);
  });

  it('the bundled copy is found when nothing overrides it', async () => {
    const bundled = writePlugin(join(mkdtempSync(join(tmpdir(), 'bundled-')), 'b'), {
      pkg: { name: 'b' },
      ...entry,
    });
    const { plugins } = await discoverPlugins({ hermesHome: home(), bundledDirs: [bundled] });
    expect(plugins.map((p) => [p.name, p.source])).toEqual([['b', 'bundled']]);
  });

  it('searches ./.hermes/plugins only when HERMES_ENABLE_PROJECT_PLUGINS=1', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'project-'));
    writePlugin(join(home(), 'plugins', 'p'), { pkg: { name: 'p', version: '1.0.0' }, ...entry });
    writePlugin(join(cwd, '.hermes', 'plugins', 'p'), {
      pkg: { name: 'p', version: '2.0.0' },
      ...entry,
    });
    const off = await discoverPlugins({ hermesHome: home(), cwd, env: {} });
    expect(off.plugins.map((p) => [p.source, p.version])).toEqual([['user', '1.0.0']]);
    const notOne = await discoverPlugins({
      hermesHome: home(),
      cwd,
      env: { HERMES_ENABLE_PROJECT_PLUGINS: 'yes' },
    });
    expect(notOne.plugins.map((p) => p.source)).toEqual(['user']);
    const on = await discoverPlugins({
      hermesHome: home(),
      cwd,
      env: { HERMES_ENABLE_PROJECT_PLUGINS: '1' },
    });
    expect(on.plugins.map((p) => [p.source, p.version])).toEqual([['project', '2.0.0']]);
  });

  it('reports an invalid "hermes" field naming the field, and a missing entry file', async () => {
    writePlugin(join(home(), 'plugins', 'bad-kind'), {
      pkg: { name: 'bad-kind', hermes: { kind: 'weird' } },
      ...entry,
    });
    writePlugin(join(home(), 'plugins', 'bad-key'), {
      pkg: { name: 'bad-key', hermes: { requiresEnv: ['NOT A NAME'], extra: 1 } },
      ...entry,
    });
    writePlugin(join(home(), 'plugins', 'no-entry'), {
      pkg: { name: 'no-entry', main: 'gone.js' },
    });
    writePlugin(join(home(), 'plugins', 'no-pkg'), { writePkg: false, ...entry });
    writePlugin(join(home(), 'plugins', 'not-json'), {
      writePkg: false,
      files: { 'package.json': '{ nope', 'index.js': '' },
    });
    const { plugins, problems } = await discoverPlugins({ hermesHome: home() });
    expect(plugins).toEqual([]);
    const byDir = Object.fromEntries(problems.map((p) => [p.dir.split('/').pop(), p]));
    expect(byDir['bad-kind']).toMatchObject({ name: 'bad-kind', source: 'user' });
    expect(byDir['bad-kind']?.message).toMatch(/^package\.json is not valid: hermes\.kind: /);
    expect(byDir['bad-key']?.message).toContain(
      'hermes.requiresEnv.0: requiresEnv entries must be environment variable names',
    );
    expect(byDir['bad-key']?.message).toMatch(/hermes: Unrecognized key: "extra"/);
    expect(byDir['no-entry']?.message).toBe('entry file "gone.js" does not exist');
    expect(byDir['no-pkg']?.message).toBe('no package.json');
    expect(byDir['not-json']?.message).toMatch(/^package\.json is not JSON/);
  });

  it('a user folder without a "hermes" field is a problem; an npm dependency is skipped', async () => {
    writePlugin(join(home(), 'plugins', 'plain'), {
      pkg: { name: 'plain', hermes: undefined },
      ...entry,
    });
    writePlugin(join(home(), 'plugins', 'node_modules', 'zod-like'), {
      pkg: { name: 'zod-like', hermes: undefined },
      ...entry,
    });
    const { problems } = await discoverPlugins({ hermesHome: home() });
    expect(problems.map((p) => [p.name, p.source])).toEqual([['plain', 'user']]);
    expect(problems[0]?.message).toMatch(/hermes: /);
  });

  it('finds the entry from exports (string, ".", conditions), main, or index.*', async () => {
    const cases: [string, Record<string, unknown>, Record<string, string>, string][] = [
      ['e-string', { exports: './lib/a.js' }, { 'lib/a.js': '' }, 'lib/a.js'],
      ['e-dot', { exports: { '.': './b.mjs', './x': './x.js' } }, { 'b.mjs': '' }, 'b.mjs'],
      [
        'e-import',
        { exports: { '.': { types: './t.d.ts', import: './i.mjs', require: './r.cjs' } } },
        { 'i.mjs': '', 'r.cjs': '' },
        'i.mjs',
      ],
      ['e-default', { exports: { default: './d.js' } }, { 'd.js': '' }, 'd.js'],
      ['e-require', { exports: { '.': { require: './r.cjs' } } }, { 'r.cjs': '' }, 'r.cjs'],
      ['main', { main: 'm.cjs' }, { 'm.cjs': '' }, 'm.cjs'],
      ['index-mjs', {}, { 'index.mjs': '' }, 'index.mjs'],
    ];
    for (const [name, fields, files] of cases) {
      writePlugin(join(home(), 'plugins', name), { pkg: { name, ...fields }, files });
    }
    writePlugin(join(home(), 'plugins', 'escape'), { pkg: { name: 'escape', main: '../x.js' } });
    writePlugin(join(home(), 'plugins', 'none'), { pkg: { name: 'none' } });
    const { plugins, problems } = await discoverPlugins({ hermesHome: home() });
    for (const [name, , , file] of cases) {
      const found = plugins.find((p) => p.name === name);
      expect(found?.entry, name).toBe(join(found?.dir ?? '', file));
    }
    expect(problems.find((p) => p.name === 'escape')?.message).toBe(
      'entry "../x.js" is outside the plugin folder',
    );
    expect(problems.find((p) => p.name === 'none')?.message).toMatch(/^no entry file/);
  });
});
