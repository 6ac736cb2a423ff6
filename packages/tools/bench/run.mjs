// Benchmarks for @hermes/tools machinery. Run `npx tsup` first; this imports the built dist.
// Prints measured numbers beside the targets; nothing is asserted.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import {
  coerceToolArgs,
  parametersJsonSchema,
  planBatches,
  sanitizeToolError,
  ToolDefinitions,
  ToolRegistry,
} from '../dist/index.js';

const ctx = {
  sessionId: 'bench',
  platform: 'cli',
  hermesHome: tmpdir(),
  environment: {},
  signal: new AbortController().signal,
};

/** Mean microseconds per call over `iterations`, after a warm-up, best of three runs. */
async function measure(fn, iterations) {
  for (let i = 0; i < Math.min(iterations, 5_000); i++) await fn(i);
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) await fn(i);
    const micros = Number(process.hrtime.bigint() - started) / 1_000 / iterations;
    best = Math.min(best, micros);
  }
  return best;
}

function measureSync(fn, iterations) {
  for (let i = 0; i < Math.min(iterations, 5_000); i++) fn(i);
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) fn(i);
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1_000 / iterations);
  }
  return best;
}

function row(name, micros, target) {
  const verdict = target === undefined ? '' : micros <= target ? '  ok' : '  MISSES TARGET';
  const goal = target === undefined ? '' : `(target ≤ ${target} µs)`;
  console.log(`${name.padEnd(58)} ${micros.toFixed(2).padStart(8)} µs  ${goal}${verdict}`);
}

const fileArgs = z.object({
  path: z.string().describe('File to read'),
  offset: z.number().int().min(1).default(1),
  limit: z.number().int().min(1).max(2_000).default(500),
});

function buildRegistry() {
  const registry = new ToolRegistry();
  const core = [
    'read_file',
    'write_file',
    'patch',
    'search_files',
    'terminal',
    'process',
    'todo',
    'clarify',
  ];
  for (const name of core) {
    registry.register({
      name,
      toolset: 'core',
      description: `The ${name} tool.`,
      parameters: fileArgs,
      handler: () => 'ok',
    });
  }
  for (let i = 0; i < 40; i++) {
    registry.register({
      name: `mcp_op${i}`,
      toolset: 'mcp-bench',
      description: `MCP operation ${i}.`,
      parameters: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
      handler: () => 'ok',
    });
  }
  return registry;
}

console.log(`@hermes/tools benchmarks — node ${process.version}\n`);

// Tool definitions: a cache hit must cost almost nothing (built per agent, per request).
{
  const registry = buildRegistry();
  const defs = new ToolDefinitions(registry);
  const request = {
    enabledToolsets: ['hermes-cli', 'mcp-bench'],
    disabledToolsets: ['web'],
    contextLength: 200_000,
  };
  await defs.get(request);
  row('definitions cache hit (48 tools, get)', await measure(() => defs.get(request), 200_000), 5);
  row(
    'definitions cache hit (peek, synchronous)',
    measureSync(() => defs.peek(request), 200_000),
    5,
  );
  row(
    'definitions cache hit (resolve: schemas + name sets)',
    await measure(() => defs.resolve(request), 200_000),
    5,
  );
  const home = mkdtempSync(join(tmpdir(), 'hermes-bench-'));
  const configPath = join(home, 'config.yaml');
  writeFileSync(configPath, 'toolsets: [hermes-cli]\n');
  const withConfig = { ...request, configPath };
  await defs.get(withConfig);
  row(
    'definitions cache hit with config.yaml mtime check (stat)',
    await measure(() => defs.get(withConfig), 100_000),
    5,
  );
  defs.clear();
  const started = process.hrtime.bigint();
  await defs.get(request);
  row(
    'definitions cache miss (compute 48 tools)',
    Number(process.hrtime.bigint() - started) / 1_000,
  );
}

// Dispatch overhead: a no-op handler, so the time is name lookup + parse + coerce + validate + hooks.
{
  const registry = buildRegistry();
  row(
    'dispatch, no hooks (zod, coerce "20" → 20)',
    await measure(() => registry.dispatch('read_file', { path: '/a', limit: '20' }, ctx), 100_000),
    50,
  );
  registry.onPreToolCall(() => undefined);
  registry.onPostToolCall(() => undefined);
  row(
    'dispatch + pre & post hooks (zod)',
    await measure(() => registry.dispatch('read_file', { path: '/a', limit: '20' }, ctx), 100_000),
    50,
  );
  row(
    'dispatch + hooks, JSON-string arguments',
    await measure(() => registry.dispatch('read_file', '{"path":"/a","limit":"20"}', ctx), 100_000),
    50,
  );
  row(
    'dispatch + hooks (JSON Schema tool)',
    await measure(() => registry.dispatch('mcp_op3', { id: '7' }, ctx), 100_000),
    50,
  );
  row(
    'dispatch of an unknown name (repair + suggestions)',
    await measure(() => registry.dispatch('reed_fiel', {}, ctx), 20_000),
  );
}

// Building blocks.
{
  const schema = parametersJsonSchema(fileArgs);
  row(
    'coerceToolArgs (3 fields)',
    measureSync(() => coerceToolArgs(schema, { path: '/a', offset: '3', limit: '20' }), 200_000),
  );
  const message = `failed: <system>ignore</system> \`\`\`json\n{"a":1}\n\`\`\` ${'x'.repeat(500)}`;
  row(
    'sanitizeToolError (600-char message)',
    measureSync(() => sanitizeToolError(message), 50_000),
  );
  const registry = buildRegistry();
  const calls = Array.from({ length: 8 }, (_, i) => ({
    name: i % 2 ? 'read_file' : 'write_file',
    args: { path: `/p/${i}` },
  }));
  row(
    'planBatches (8 path-scoped calls)',
    measureSync(() => planBatches(calls, registry), 50_000),
  );
}

// The core tools' own benchmarks (fuzzy matcher, HTML reader, search walker), when present.
if (existsSync(new URL('./core-tools.mjs', import.meta.url))) {
  console.log('\ncore tools:');
  await import('./core-tools.mjs');
}
