/**
 * The large dependencies few runs need (the Anthropic SDK, undici) are files of their own beside
 * `dist/hermes.cjs`, loaded through the code cache only when the bundle asks for them.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { script, startScriptedServer } from '@hermes/testkit';
import { describe, expect, it, onTestFinished } from 'vitest';
import { LAZY_DEPENDENCIES, lazyChunkFile } from '../src/lazy-chunks.ts';
import { hermesHome, runHermes, workDir } from './chat-harness.ts';
import { BUNDLE, requireBuild, type SpawnResult } from './spawn-hermes.ts';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));

/** The built loader (`src/code-cache.ts` in `dist/code-cache-<hash>.js`). */
function builtLoader(): string {
  requireBuild();
  const [name, ...more] = readdirSync(dist).filter((f) => /^code-cache-\w+\.js$/.test(f));
  if (!name || more.length > 0) throw new Error(`expected one dist/code-cache-*.js, got ${name}`);
  return join(dist, name);
}

/** Runs the built loader on `bundle` for `hermes chat` in a child process; prints its report. */
function loadWithBuiltLoader(bundle: string, env: Record<string, string> = {}) {
  const code = `import { loadCompiledCli } from ${JSON.stringify(pathToFileURL(builtLoader()).href)};
    const cli = loadCompiledCli(${JSON.stringify(bundle)}, ['chat']);
    process.stdout.write(JSON.stringify(cli.report()));`;
  return new Promise<SpawnResult>((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (exit) => resolve({ code: exit, stdout, stderr }));
  });
}

describe('lazy chunks', () => {
  it('are left out of dist/hermes.cjs and built beside it', () => {
    requireBuild();
    const bundle = readFileSync(BUNDLE, 'latin1');
    expect(bundle).not.toMatch(/^\/\/ .*node_modules\/@anthropic-ai\/sdk\//m);
    expect(bundle).not.toMatch(/^\/\/ .*node_modules\/undici\//m);
    const load = createRequire(import.meta.url);
    const undici = load(join(dist, lazyChunkFile('undici'))) as { fetch?: unknown };
    expect(typeof undici.fetch).toBe('function');
    const anthropic = load(join(dist, lazyChunkFile('@anthropic-ai/sdk'))) as { default?: unknown };
    expect(typeof anthropic.default).toBe('function');
    // The gateway server (`hermes gateway run`): its composition is not in the bundle, its
    // chunk keeps the native addon outside and finds files from its own path.
    expect(bundle).not.toContain('function buildGatewayServer(');
    const runtimeChunk = readFileSync(join(dist, lazyChunkFile('@hermes/runtime')), 'latin1');
    expect(runtimeChunk).toContain('function buildGatewayServer(');
    expect(runtimeChunk).toContain('require("better-sqlite3")');
    expect(runtimeChunk).not.toContain('better_sqlite3.node');
    // What plugins import (`@hermes/plugin-sdk`): the host loads it only when a plugin is enabled.
    expect(bundle).not.toContain('function definePlugin(');
    const sdk = load(join(dist, lazyChunkFile('@hermes/plugin-sdk'))) as { definePlugin?: unknown };
    expect(typeof sdk.definePlugin).toBe('function');
    expect(LAZY_DEPENDENCIES).toEqual([
      '@anthropic-ai/sdk',
      'undici',
      '@hermes/runtime',
      '@hermes/plugin-sdk',
      '@hermes/mcp',
      '@hermes/cron',
    ]);
    // The MCP SDK (loaded with `@hermes/mcp` only when an MCP server is configured).
    expect(bundle).not.toMatch(/^\/\/ .*node_modules\/@modelcontextprotocol\/sdk\//m);
    const mcp = load(join(dist, lazyChunkFile('@hermes/mcp'))) as { McpHub?: unknown };
    expect(typeof mcp.McpHub).toBe('function');
    // The job store and croner: for `hermes cron` (cron-e2e.test.ts: read only by it) and a
    // chat's first `cronjob` call; the chat agent offers the tool from its schema alone.
    expect(bundle).not.toMatch(/^\/\/ .*node_modules\/\.pnpm\/croner@/m);
    expect(bundle).not.toMatch(/^\/\/ \.\.\/\.\.\/packages\/cron\/dist\/index\.js/m);
    const cron = load(join(dist, lazyChunkFile('@hermes/cron'))) as { parseSchedule?: unknown };
    expect(typeof cron.parseSchedule).toBe('function');
  });

  it('load only when asked, once, through a code cache of their own', async () => {
    const dir = workDir();
    const bundle = join(dir, 'hermes.cjs');
    writeFileSync(
      bundle,
      `exports.report = () => {
        const before = globalThis.chunkRuns ?? 0;
        const first = require('undici');
        return { before, marker: first.marker, same: first === require('undici'),
          runs: globalThis.chunkRuns, sep: require('node:path').sep };
      };`,
    );
    writeFileSync(
      join(dir, lazyChunkFile('undici')),
      "globalThis.chunkRuns = (globalThis.chunkRuns ?? 0) + 1; exports.marker = 'from the chunk';",
    );
    const first = await loadWithBuiltLoader(bundle);
    expect(first.stderr).toBe('');
    expect(JSON.parse(first.stdout)).toEqual({
      before: 0,
      marker: 'from the chunk',
      same: true,
      runs: 1,
      sep: '/',
    });
    const caches = readdirSync(join(hermesHome(), 'cache', 'code-cache')).sort();
    expect(caches).toHaveLength(2);
    expect(caches[0]).toMatch(/^hermes-[0-9a-f]{8}-chat\.bin$/);
    expect(caches[1]).toBe((caches[0] as string).replace('.bin', '.lazy-undici.bin'));
    const second = await loadWithBuiltLoader(bundle, { HERMES_TRACE_STARTUP: '1' });
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toContain(`${join(dir, lazyChunkFile('undici'))} read (with code cache)`);
  });

  it('serve the Anthropic adapter: hermes chat -q against an Anthropic Messages server', async () => {
    const server = await startScriptedServer(script().text('Bonjour from Claude.'));
    onTestFinished(() => server.close());
    writeFileSync(
      join(hermesHome(), 'config.yaml'),
      `model:\n  provider: anthropic\n  default: scripted-model\n  base_url: ${server.baseUrl('anthropic-messages')}\n`,
    );
    const result = await runHermes(['chat', '-q', 'hello', '--quiet'], workDir(), {
      ANTHROPIC_API_KEY: 'sk-ant-test-0123456789',
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('Bonjour from Claude.\n');
    expect(server.requests.map((r) => r.protocol)).toEqual(['anthropic-messages']);
  });
});

describe("zod's message translations", () => {
  it('are left out of dist/hermes.cjs but English, which the executable still speaks', async () => {
    requireBuild();
    const bundle = readFileSync(BUNDLE, 'latin1');
    expect(bundle).toMatch(/^\/\/ .*node_modules\/zod\/v4\/locales\/en\.js$/m);
    expect(bundle).not.toMatch(/^\/\/ .*node_modules\/zod\/v4\/locales\/de\.js$/m);
    writeFileSync(join(hermesHome(), 'config.yaml'), 'agent:\n  max_turns: lots\n');
    const result = await runHermes(['config', 'check'], workDir());
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain(
      'agent.max_turns (line 2): Invalid input: expected number, received string',
    );
  });
});
