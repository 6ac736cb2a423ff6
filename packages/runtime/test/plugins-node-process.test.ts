/**
 * The plugin host as it runs in the apps: the built `dist/` in a plain Node process (no Vitest
 * module runner in the way). Proves the host copy of the SDK reaches ESM and CommonJS plugins,
 * that nothing (not even the SDK's host copy) is set up when no plugin is enabled, that the
 * process exits on its own afterwards (the hooks thread's port does not hold it), and that
 * nothing is written to stderr.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { esmPlugin, writePlugin } from './fixtures/plugins/write-plugin.js';

const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const hostSdk = fileURLToPath(
  new URL('../node_modules/@hermes/plugin-sdk/dist/index.js', import.meta.url),
);

const SCRIPT = `
import { loadPlugins, PluginsSectionSchema } from ${JSON.stringify(pathToFileURL(dist).href)};
const key = Symbol.for('@hermes/plugin-sdk:host');
const hermesHome = process.env.HERMES_HOME;
const load = (enabled) =>
  loadPlugins({ hermesHome, env: {}, config: PluginsSectionSchema.parse({ enabled }) });
const out = {};
const none = await load([]);
out.none = none.statuses.map((s) => [s.name, s.state]);
out.hostCopyAfterNone = key in globalThis;
out.boomImported = globalThis.__boomImported === true;
const some = await load(['hello', 'cjs']);
out.some = some.statuses.map((s) => [s.name, s.state, s.message ?? '']);
const sdk = await import(${JSON.stringify(pathToFileURL(hostSdk).href)});
out.publishedIsHostCopy = globalThis[key] === sdk;
const ctx = { sessionId: 's', signal: new AbortController().signal };
out.tools = {};
for (const t of some.tools) out.tools[t.tool.schema.function.name] = await t.tool.handler({}, ctx);
out.sameClass = globalThis.__pluginClasses.every((c) => c === sdk.ContextEngine);
// A folder that appears after the hook was registered reaches it through its port.
const { cpSync } = await import('node:fs');
cpSync(hermesHome + '/plugins/hello', hermesHome + '/plugins/later', { recursive: true });
const later = await load(['later']);
out.later = later.statuses.filter((s) => s.state !== 'not_enabled').map((s) => [s.name, s.state]);
console.log(JSON.stringify(out));
`;

function run(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [script],
      { env: { ...process.env }, timeout: 60_000 },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

// The child is killed after 60 s: a backstop for a hang on a loaded machine, not a deadline.
describe('the plugin host in a plain Node process', { timeout: 90_000 }, () => {
  it('gives ESM and CJS plugins the host SDK, sets up nothing when none is enabled', async () => {
    expect(existsSync(dist), 'build @hermes/runtime first: cd packages/runtime && npx tsup').toBe(
      true,
    );
    const home = process.env.HERMES_HOME as string;
    writePlugin(
      join(home, 'plugins', 'hello'),
      esmPlugin(
        'hermes-plugin-hello',
        `(globalThis.__pluginClasses ??= []).push(ContextEngine);
         ctx.registerTool({ schema: { type: 'function', function: { name: 'hello', description: 'd', parameters: { type: 'object' } } }, handler: () => 'hi from esm' });`,
        "import { ContextEngine } from '@hermes/plugin-sdk';",
      ),
    );
    writePlugin(join(home, 'plugins', 'cjs'), {
      pkg: { name: 'cjs', main: 'index.cjs' },
      files: {
        'index.cjs': `const { definePlugin, ContextEngine } = require('@hermes/plugin-sdk');
(globalThis.__pluginClasses ??= []).push(ContextEngine);
module.exports = definePlugin({
  manifest: { name: 'cjs', version: '1.0.0' },
  register(ctx) {
    ctx.registerTool({ schema: { type: 'function', function: { name: 'cjs_tool', description: 'd', parameters: { type: 'object' } } }, handler: () => 'hi from cjs' });
  },
});
`,
      },
    });
    writePlugin(join(home, 'plugins', 'boom'), {
      pkg: { name: 'boom', main: 'index.mjs' },
      files: { 'index.mjs': "globalThis.__boomImported = true;\nthrow new Error('imported');\n" },
    });
    const script = join(mkdtempSync(join(tmpdir(), 'plugin-host-')), 'run.mjs');
    writeFileSync(script, SCRIPT);
    const { code, stdout, stderr } = await run(script);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      none: [
        ['boom', 'not_enabled'],
        ['cjs', 'not_enabled'],
        ['hermes-plugin-hello', 'not_enabled'],
      ],
      hostCopyAfterNone: false,
      boomImported: false,
      some: [
        ['boom', 'not_enabled', ''],
        ['cjs', 'loaded', ''],
        ['hermes-plugin-hello', 'loaded', ''],
      ],
      publishedIsHostCopy: true,
      tools: { cjs_tool: 'hi from cjs', hello: 'hi from esm' },
      sameClass: true,
      later: [['hermes-plugin-hello', 'loaded']],
    });
  });
});
