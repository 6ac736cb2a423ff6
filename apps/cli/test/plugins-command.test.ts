/**
 * `hermes plugins enable|disable|install|remove|list`, in-process against real folders, a real
 * `tar` and real config.yaml edits. The npm path runs through a recording runner (no network in
 * tests): it checks the exact npm command line and plays npm's part on disk.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CommandOutcome, CommandRunner } from '../src/commands/plugins/command-runner.ts';
import { run as runPlugins } from '../src/commands/plugins.ts';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';
import { hermes as hermesBinary } from './spawn-hermes.ts';

const home = () => process.env.HERMES_HOME as string;
const configPath = () => join(home(), 'config.yaml');

interface PluginShape {
  readonly name: string;
  readonly version?: string;
  readonly hermes?: unknown;
  /** The body of `register(ctx)`; empty by default. */
  readonly register?: string;
}

/** A plugin folder: package.json and an ESM entry importing the SDK by name, as users write. */
function writePlugin(dir: string, shape: PluginShape): string {
  mkdirSync(dir, { recursive: true });
  const version = shape.version ?? '1.0.0';
  const pkg = {
    name: shape.name,
    version,
    type: 'module',
    main: 'index.mjs',
    hermes: shape.hermes ?? { kind: 'general' },
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  const manifest = JSON.stringify({ name: shape.name, version });
  writeFileSync(
    join(dir, 'index.mjs'),
    `import { definePlugin } from '@hermes/plugin-sdk';\n` +
      `export default definePlugin({ manifest: ${manifest}, register(ctx) {\n${shape.register ?? ''}\n} });\n`,
  );
  return dir;
}

function scratchDir(): string {
  return mkdtempSync(join(tmpdir(), 'hermes-plugin-src-'));
}

async function hermes(...argv: string[]) {
  const c = capture();
  const code = await main(argv, c.io);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

/** Plays npm: records every command line; `install` puts `pkg` into node_modules. */
class RecordingNpm extends CommandRunner {
  readonly calls: string[][] = [];
  constructor(
    private readonly pkg: PluginShape | undefined,
    private readonly fail?: CommandOutcome,
  ) {
    super();
  }
  async run(command: string, args: readonly string[]): Promise<CommandOutcome> {
    this.calls.push([command, ...args]);
    if (this.fail) return this.fail;
    const prefix = args[args.indexOf('--prefix') + 1] as string;
    if (args[0] === 'install' && this.pkg) {
      writePlugin(join(prefix, 'node_modules', this.pkg.name), this.pkg);
      const manifest = { dependencies: { [this.pkg.name]: `^${this.pkg.version ?? '1.0.0'}` } };
      writeFileSync(join(prefix, 'package.json'), JSON.stringify(manifest));
    }
    return { code: 0, stdout: '', stderr: '' };
  }
}

/** The npm command line expected: scripts, audit and funding notices off, into `prefix`. */
function npmLine(sub: string, prefix: string, spec: string): string[] {
  return ['npm', sub, '--ignore-scripts', '--no-audit', '--no-fund', '--prefix', prefix, spec];
}

async function withRunner(runner: CommandRunner, ...argv: string[]) {
  const c = capture();
  const code = await runPlugins(
    argv,
    { ...c.io, env: process.env, hermesHome: home() },
    { runner },
  );
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

describe('hermes plugins install', () => {
  it('copies a folder into HERMES_HOME/plugins/<name> and says how to enable it, without enabling it', async () => {
    const src = writePlugin(join(scratchDir(), 'work'), { name: '@acme/hermes-jira' });
    const result = await hermes('plugins', 'install', src);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const target = join(home(), 'plugins', 'hermes-jira');
    expect(JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')).name).toBe(
      '@acme/hermes-jira',
    );
    expect(existsSync(join(target, 'index.mjs'))).toBe(true);
    expect(result.stdout).toContain('hermes plugins enable @acme/hermes-jira');
    expect(existsSync(configPath())).toBe(false);
    // No scratch folder is left behind.
    expect(readdirSync(join(home(), 'plugins'))).toEqual(['hermes-jira']);
  });

  it('refuses a package.json with a bad "hermes" field, naming the field, and installs nothing', async () => {
    const src = writePlugin(join(scratchDir(), 'bad'), {
      name: 'hermes-plugin-bad',
      hermes: { kind: 'wizard' },
    });
    const result = await hermes('plugins', 'install', src);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is not a Hermes plugin');
    expect(result.stderr).toContain('hermes.kind');
    expect(existsSync(join(home(), 'plugins'))).toBe(false);
  });

  it('replaces the same plugin, but another plugin in the folder only with --force', async () => {
    writePlugin(join(home(), 'plugins', 'hello'), { name: 'other-plugin' });
    const src = writePlugin(join(scratchDir(), 'hello'), { name: 'hello', version: '1.1.0' });
    const refused = await hermes('plugins', 'install', src);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('already holds plugin other-plugin; pass --force');
    const forced = await hermes('plugins', 'install', src, '--force');
    expect(forced.code).toBe(0);
    const upgrade = writePlugin(join(scratchDir(), 'hello'), { name: 'hello', version: '1.2.0' });
    const replaced = await hermes('plugins', 'install', upgrade);
    expect(replaced.code).toBe(0);
    expect(replaced.stdout).toContain('Replaced 1.1.0 with hello 1.2.0');
  });

  it('extracts an npm-style tarball, its package/ prefix stripped', async () => {
    const work = scratchDir();
    writePlugin(join(work, 'package'), { name: 'hermes-plugin-tar', version: '2.0.0' });
    execFileSync('tar', ['czf', 'tar-plugin.tgz', 'package'], { cwd: work });
    const result = await hermes('plugins', 'install', join(work, 'tar-plugin.tgz'));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const target = join(home(), 'plugins', 'hermes-plugin-tar');
    expect(JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')).version).toBe('2.0.0');
    expect(existsSync(join(target, 'package'))).toBe(false);
  });

  it('installs an npm spec with npm, scripts off, into HERMES_HOME/plugins', async () => {
    const npm = new RecordingNpm({ name: 'hermes-plugin-weather', version: '1.2.0' });
    const result = await withRunner(npm, 'install', 'hermes-plugin-weather@1.2.0');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const prefix = join(home(), 'plugins');
    expect(npm.calls).toEqual([npmLine('install', prefix, 'hermes-plugin-weather@1.2.0')]);
    expect(result.stdout).toContain(
      `hermes-plugin-weather 1.2.0 in ${join(prefix, 'node_modules')}`,
    );
    expect(result.stdout).toContain('hermes plugins enable hermes-plugin-weather');
  });

  it("shows npm's output when npm fails", async () => {
    const npm = new RecordingNpm(undefined, {
      code: 1,
      stdout: '',
      stderr: 'npm error 404 Not Found - GET https://registry.npmjs.org/nope',
    });
    const result = await withRunner(npm, 'install', 'nope');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("npm could not install 'nope' (exit 1)");
    expect(result.stderr).toContain('404 Not Found');
  });

  it('uninstalls again an npm package that is not a plugin', async () => {
    const npm = new RecordingNpm({ name: 'left-pad', hermes: 'not an object' });
    const result = await withRunner(npm, 'install', 'left-pad');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('left-pad is not a Hermes plugin');
    expect(npm.calls.map((call) => call[1])).toEqual(['install', 'uninstall']);
    expect(npm.calls[1]?.at(-1)).toBe('left-pad');
  });
});

describe('hermes plugins enable/disable', () => {
  it('moves the plugin between plugins.enabled and plugins.disabled, keeping comments, idempotently', async () => {
    writePlugin(join(home(), 'plugins', 'hello'), { name: 'hermes-plugin-hello' });
    writeFileSync(configPath(), '# my settings\nagent:\n  max_turns: 10 # low\n');
    const enabled = await hermes('plugins', 'enable', 'hello');
    expect(enabled.stderr).toBe('');
    expect(enabled.code).toBe(0);
    expect(enabled.stdout).toContain('added hermes-plugin-hello to plugins.enabled');
    let text = readFileSync(configPath(), 'utf8');
    expect(text).toContain('# my settings');
    expect(text).toContain('max_turns: 10 # low');
    expect(text).toMatch(/enabled:\n\s+- hermes-plugin-hello/);
    const again = await hermes('plugins', 'enable', 'hermes-plugin-hello');
    expect(again.stdout).toContain('hermes-plugin-hello is already enabled; nothing changed');
    expect(readFileSync(configPath(), 'utf8')).toBe(text);

    const disabled = await hermes('plugins', 'disable', 'hello');
    expect(disabled.code).toBe(0);
    expect(disabled.stdout).toContain('removed hermes-plugin-hello from plugins.enabled');
    expect(disabled.stdout).toContain('added hermes-plugin-hello to plugins.disabled');
    const reenabled = await hermes('plugins', 'enable', 'hello');
    expect(reenabled.stdout).toContain('removed hermes-plugin-hello from plugins.disabled');
    text = readFileSync(configPath(), 'utf8');
    expect(text).toMatch(/enabled:\n\s+- hermes-plugin-hello/);
    expect(text).not.toMatch(/disabled:\n\s+- /);
    expect(await hermes('config', 'check')).toMatchObject({ code: 0 });
  });

  it('disabling removes an entry written as the folder name', async () => {
    writePlugin(join(home(), 'plugins', 'hello'), { name: 'hermes-plugin-hello' });
    writeFileSync(configPath(), 'plugins:\n  enabled: [hello, other]\n');
    await hermes('plugins', 'disable', 'hermes-plugin-hello');
    const text = readFileSync(configPath(), 'utf8');
    expect(text).toMatch(/enabled:\n\s+- other\n/);
    expect(text).not.toMatch(/- hello\n/);
    expect(text).toMatch(/disabled:\n\s+- hermes-plugin-hello/);
  });

  it('reminds that a memory plugin is used once selected', async () => {
    const hermesField = { kind: 'memory', provides: { memoryProviders: ['deep'] } };
    writePlugin(join(home(), 'plugins', 'deep'), { name: 'deep-memory', hermes: hermesField });
    const result = await hermes('plugins', 'enable', 'deep');
    expect(result.stdout).toContain('hermes config set memory.provider deep');
  });

  it('refuses an unknown name, listing the plugins there are', async () => {
    writePlugin(join(home(), 'plugins', 'hello'), { name: 'hermes-plugin-hello' });
    writePlugin(join(home(), 'plugins', 'weather'), { name: 'weather' });
    const result = await hermes('plugins', 'enable', 'helo');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "no plugin named 'helo'. Installed plugins: @hermes/plugin-memory-holographic, @hermes/plugin-platform-discord, @hermes/plugin-platform-slack, @hermes/plugin-platform-telegram, hermes-plugin-hello, weather",
    );
    expect(existsSync(configPath())).toBe(false);
  });
});

describe('hermes plugins remove', () => {
  it('deletes a user plugin and its plugins.enabled entry, keeping its data unless --purge', async () => {
    writePlugin(join(home(), 'plugins', 'hello'), { name: 'hello' });
    writePlugin(join(home(), 'plugins', 'bye'), { name: 'bye' });
    writeFileSync(configPath(), 'plugins:\n  enabled: [hello, bye]\n');
    mkdirSync(join(home(), 'plugin-data', 'hello'), { recursive: true });
    mkdirSync(join(home(), 'plugin-data', 'bye'), { recursive: true });
    const kept = await hermes('plugins', 'remove', 'hello');
    expect(kept.code).toBe(0);
    expect(existsSync(join(home(), 'plugins', 'hello'))).toBe(false);
    expect(kept.stdout).toContain('config.yaml: removed hello from plugins.enabled');
    expect(kept.stdout).toContain('Kept its data in');
    expect(existsSync(join(home(), 'plugin-data', 'hello'))).toBe(true);
    const purged = await hermes('plugins', 'remove', 'bye', '--purge');
    expect(purged.code).toBe(0);
    expect(existsSync(join(home(), 'plugin-data', 'bye'))).toBe(false);
    expect(readFileSync(configPath(), 'utf8')).toContain('enabled: []');
  });

  it('removes only the link of a plugin linked from elsewhere', async () => {
    const real = writePlugin(join(scratchDir(), 'dev-plugin'), { name: 'dev-plugin' });
    mkdirSync(join(home(), 'plugins'));
    symlinkSync(real, join(home(), 'plugins', 'dev-plugin'));
    const result = await hermes('plugins', 'remove', 'dev-plugin');
    expect(result.code).toBe(0);
    expect(() => lstatSync(join(home(), 'plugins', 'dev-plugin'))).toThrow();
    expect(existsSync(join(real, 'package.json'))).toBe(true);
  });

  it('uninstalls an npm plugin with npm', async () => {
    writePlugin(join(home(), 'plugins', 'node_modules', 'npm-plugin'), { name: 'npm-plugin' });
    const npm = new RecordingNpm(undefined);
    const result = await withRunner(npm, 'remove', 'npm-plugin');
    expect(result.code).toBe(0);
    expect(npm.calls).toEqual([npmLine('uninstall', join(home(), 'plugins'), 'npm-plugin')]);
  });
});

const GREET_TOOL = `ctx.registerTool({ schema: { type: 'function', function: { name: 'greet',
  description: 'Greets.', parameters: { type: 'object', properties: {} } } }, handler: () => 'hi' });
ctx.registerHook('preToolCall', () => undefined);`;

/** One plugin in each state `list` can report. */
function pluginsInEveryState(): void {
  const dir = (folder: string) => join(home(), 'plugins', folder);
  writePlugin(dir('greeter'), { name: 'hermes-plugin-greeter', register: GREET_TOOL });
  writePlugin(dir('idle'), { name: 'idle' });
  writePlugin(dir('off'), { name: 'off' });
  writePlugin(dir('needs-key'), {
    name: 'needs-key',
    hermes: { requiresEnv: ['HERMES_TEST_UNSET_KEY'] },
  });
  writePlugin(dir('crash'), { name: 'crash', register: "throw new Error('crashed on purpose');" });
  writePlugin(dir('broken'), { name: 'broken', hermes: { kind: 'wizard' } });
  writeFileSync(
    configPath(),
    'plugins:\n  enabled: [greeter, off, needs-key, crash, broken]\n  disabled: [off]\n',
  );
}

describe('hermes plugins list', () => {
  it('lists only the bundled plugin when none is installed, not enabled', async () => {
    const result = await hermes('plugins', 'list');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(
      /@hermes\/plugin-memory-holographic\s+\S+\s+bundled\s+no\s+not_enabled/,
    );
  });

  it('shows each plugin with its source, enabled flag, real state and what it registered', async () => {
    pluginsInEveryState();
    const result = await hermes('plugins', 'list');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    const row = (name: string) => lines.find((line) => line.startsWith(`${name} `)) ?? '';
    expect(lines[0]).toMatch(/^NAME\s+VERSION\s+SOURCE\s+ENABLED\s+STATE\s+REGISTERED$/);
    expect(row('hermes-plugin-greeter')).toMatch(
      /^hermes-plugin-greeter\s+1\.0\.0\s+user\s+yes\s+loaded\s+tools: greet; hooks: preToolCall$/,
    );
    expect(row('idle')).toMatch(/^idle\s+1\.0\.0\s+user\s+no\s+not_enabled\s+-$/);
    expect(row('off')).toMatch(/\bno\s+disabled\b/);
    expect(row('needs-key')).toMatch(/\byes\s+missing_env\b/);
    expect(row('crash')).toMatch(/\byes\s+failed\b/);
    expect(row('broken')).toMatch(/\binvalid\b/);
    expect(result.stdout).toContain('Problems:');
    expect(result.stdout).toMatch(/crash \(failed\): .*crashed on purpose/);
    expect(result.stdout).toMatch(/needs-key \(missing_env\): .*HERMES_TEST_UNSET_KEY/);
    expect(result.stdout).toMatch(/broken \(invalid\): .*hermes\.kind/);
  });

  it('--json prints every status', async () => {
    pluginsInEveryState();
    const result = await hermes('plugins', 'list', '--json');
    expect(result.code).toBe(0);
    const statuses = JSON.parse(result.stdout) as {
      name: string;
      state: string;
      enabled: boolean;
      registered: { tools: string[] };
    }[];
    const byName = Object.fromEntries(statuses.map((s) => [s.name, s]));
    expect(byName['hermes-plugin-greeter']).toMatchObject({
      state: 'loaded',
      enabled: true,
      source: 'user',
      version: '1.0.0',
      registered: { tools: ['greet'], hooks: ['preToolCall'] },
    });
    expect(Object.fromEntries(statuses.map((s) => [s.name, s.state]))).toEqual({
      '@hermes/plugin-memory-holographic': 'not_enabled',
      '@hermes/plugin-platform-telegram': 'not_enabled',
      '@hermes/plugin-platform-discord': 'not_enabled',
      '@hermes/plugin-platform-slack': 'not_enabled',
      'hermes-plugin-greeter': 'loaded',
      idle: 'not_enabled',
      off: 'disabled',
      'needs-key': 'missing_env',
      crash: 'failed',
      broken: 'invalid',
    });
  });

  it('refuses to guess when config.yaml is broken', async () => {
    writeFileSync(configPath(), 'plugins:\n  enabeld: [x]\n');
    const result = await hermes('plugins', 'list');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "plugins.enabeld (line 2): unknown key; did you mean 'plugins.enabled'?",
    );
  });
});

describe('hermes plugins, the built binary', () => {
  it('lists a plugin that imports the SDK by name, loaded from the bundle, and refuses to remove a project plugin', async () => {
    pluginsInEveryState();
    const listed = await hermesBinary(['plugins', 'list', '--json']);
    // (Node may print an ExperimentalWarning for the bundle's dynamic-import loader here.)
    expect(listed.stderr).not.toContain('hermes plugins:');
    expect(listed.code).toBe(0);
    const statuses = JSON.parse(listed.stdout) as { name: string; state: string }[];
    expect(statuses.find((s) => s.name === 'hermes-plugin-greeter')?.state).toBe('loaded');

    const project = scratchDir();
    writePlugin(join(project, '.hermes', 'plugins', 'proj'), { name: 'proj' });
    const env = { HERMES_ENABLE_PROJECT_PLUGINS: '1' };
    const removed = await hermesBinary(['plugins', 'remove', 'proj'], env, project);
    expect(removed.code).toBe(1);
    expect(removed.stderr).toContain('cannot remove proj: it is a project plugin');
    expect(removed.stderr).toContain('hermes plugins disable proj');
    expect(existsSync(join(project, '.hermes', 'plugins', 'proj', 'package.json'))).toBe(true);
  });
});
