import { ToolSchemaSchema } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import {
  coreTools,
  HERMES_CORE_TOOLS,
  planBatches,
  ToolDefinitions,
  ToolRegistry,
} from '../src/index.js';

function coreRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of coreTools()) registry.register(tool);
  return registry;
}

describe('the core tools through the machinery', () => {
  it('every core tool belongs to the core list', () => {
    for (const tool of coreTools()) expect(HERMES_CORE_TOOLS).toContain(tool.name);
  });

  it('hermes-cli definitions are valid tool schemas for every provider profile', async () => {
    const defs = new ToolDefinitions(coreRegistry());
    for (const schemaProfile of ['default', 'gemini'] as const) {
      const schemas = await defs.get({ schemaProfile });
      expect(schemas.length).toBeGreaterThan(5);
      for (const schema of schemas) {
        expect(ToolSchemaSchema.safeParse(schema).success).toBe(true);
        expect(schema.function.parameters.type).toBe('object');
        expect(JSON.stringify(schema)).not.toContain('$schema');
      }
    }
  });

  it('tools without a configured backend are hidden', async () => {
    const names = (await new ToolDefinitions(coreRegistry()).get()).map((s) => s.function.name);
    expect(names).toEqual(
      expect.arrayContaining(['terminal', 'read_file', 'write_file', 'patch', 'todo', 'clarify']),
    );
    expect(names).not.toContain('web_search');
    expect(names).not.toContain('text_to_speech');
  });

  it('the webhook platform gets only the read-only subset', async () => {
    const names = (
      await new ToolDefinitions(coreRegistry()).get({ enabledToolsets: ['hermes-webhook'] })
    ).map((s) => s.function.name);
    expect(
      names.every((n) => ['web_search', 'web_extract', 'vision_analyze', 'clarify'].includes(n)),
    ).toBe(true);
    expect(names).toContain('clarify');
  });

  it('core tools are never hidden by tool search, even in a tiny window', async () => {
    const resolved = await new ToolDefinitions(coreRegistry()).resolve({ contextLength: 1_000 });
    expect(resolved.hidden.size).toBe(0);
    expect(resolved.names.has('terminal')).toBe(true);
  });

  it('the real specs plan clarify alone and disjoint writes together', () => {
    const registry = coreRegistry();
    const batches = planBatches(
      [
        { name: 'write_file', args: { path: 'a.txt', content: 'x' } },
        { name: 'write_file', args: { path: 'b.txt', content: 'y' } },
        { name: 'clarify', args: { question: 'ok?' } },
      ],
      registry,
    );
    expect(batches.map((b) => [b.mode, b.calls.length])).toEqual([
      ['parallel', 2],
      ['sequential', 1],
    ]);
  });
});
