import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  assembleToolSearch,
  buildToolCatalog,
  estimateTokens,
  ToolDefinitions,
  ToolRegistry,
  type ToolSpec,
} from '../src/index.js';
import { makeContext } from './support/context.js';

function mcpTool(server: string, index: number, calls: string[] = []): ToolSpec {
  return {
    name: `${server}_op${index}`,
    toolset: `mcp-${server}`,
    description: `Operation ${index} of the ${server} server. It does a ${server} thing with a long explanation. More text.`,
    parameters: {
      type: 'object',
      properties: {
        id: { type: 'integer', description: 'The identifier of the thing to operate on' },
      },
      required: ['id'],
    },
    handler: (args) => {
      calls.push(`${server}_op${index}:${JSON.stringify(args)}`);
      return `ran ${server}_op${index}`;
    },
  };
}

function setup(count = 40) {
  const registry = new ToolRegistry();
  const calls: string[] = [];
  registry.register({
    name: 'read_file',
    toolset: 'file',
    description: 'Read a file',
    parameters: z.object({ path: z.string() }),
    handler: ({ path }) => `contents of ${path}`,
  });
  registry.register({
    name: 'write_file',
    toolset: 'file',
    description: 'Write a file',
    parameters: z.object({ path: z.string() }),
    handler: () => 'written',
  });
  for (let i = 0; i < count; i++)
    registry.register(mcpTool(i % 2 === 0 ? 'github' : 'jira', i, calls));
  const defs = new ToolDefinitions(registry);
  const request = { enabledToolsets: ['file', 'mcp-github', 'mcp-jira'] };
  return { registry, defs, calls, request };
}

const names = (schemas: { function: { name: string } }[]) => schemas.map((s) => s.function.name);

describe('tool-search switch-over', () => {
  it('keeps every tool visible while non-core schemas fit 10% of the window', async () => {
    const { defs, request } = setup(40);
    const resolved = await defs.resolve({ ...request, contextLength: 1_000_000 });
    expect(resolved.hidden.size).toBe(0);
    expect(names(resolved.schemas)).toHaveLength(42);
    expect(names(resolved.schemas)).not.toContain('tool_search');
  });

  it('hides non-core tools behind the three bridge tools once they exceed 10%', async () => {
    const { defs, request } = setup(40);
    const resolved = await defs.resolve({ ...request, contextLength: 20_000 });
    expect(resolved.hidden.size).toBe(40);
    expect(names(resolved.schemas)).toEqual([
      'read_file',
      'write_file',
      'tool_search',
      'tool_describe',
      'tool_call',
    ]);
    expect([...resolved.names]).toEqual(names(resolved.schemas));
  });

  it('switches exactly at the threshold share', async () => {
    const { defs, request } = setup(4);
    const visible = await defs.resolve({ ...request });
    const nonCore = visible.schemas.filter(
      (s) => !['read_file', 'write_file'].includes(s.function.name),
    );
    const cost = nonCore.reduce((sum, s) => sum + estimateTokens(JSON.stringify(s)), 0);
    expect((await defs.resolve({ ...request, contextLength: cost * 10 })).hidden.size).toBe(0);
    expect((await defs.resolve({ ...request, contextLength: cost * 10 - 10 })).hidden.size).toBe(4);
  });

  it('never hides core tools, however small the window', async () => {
    const registry = new ToolRegistry();
    registry.register(mcpTool('github', 1));
    registry.register({ ...mcpTool('x', 2), name: 'terminal', toolset: 'terminal' });
    const defs = new ToolDefinitions(registry);
    const resolved = await defs.resolve({
      enabledToolsets: ['terminal', 'mcp-github'],
      contextLength: 100,
    });
    expect([...resolved.hidden]).toEqual(['github_op1']);
    expect(names(resolved.schemas)).toContain('terminal');
  });

  it('skipToolSearch and a missing context length keep everything visible', async () => {
    const { defs, request } = setup(40);
    expect(
      (await defs.resolve({ ...request, contextLength: 1_000, skipToolSearch: true })).hidden.size,
    ).toBe(0);
    expect((await defs.resolve(request)).hidden.size).toBe(0);
  });

  it('the catalog degrades from names and descriptions to names to per-server counts', async () => {
    const { defs, request } = setup(40);
    const describe = async (contextLength: number) => {
      const resolved = await defs.resolve({ ...request, contextLength });
      const search = resolved.schemas.find((s) => s.function.name === 'tool_search');
      return { level: resolved.catalogLevel, text: search?.function.description ?? '' };
    };
    const full = await describe(20_000);
    expect(full.level).toBe('full');
    expect(full.text).toContain('- github_op0: Operation 0 of the github server.');
    const onlyNames = await describe(5_000);
    expect(onlyNames.level).toBe('names');
    expect(onlyNames.text).toContain('[mcp-github] github_op0, github_op2');
    expect(onlyNames.text).not.toContain('Operation 0');
    const counts = await describe(2_000);
    expect(counts.level).toBe('counts');
    expect(counts.text).toContain('mcp-github: 20 tools');
    expect(counts.text).toContain('mcp-jira: 20 tools');
    expect(counts.text).not.toContain('github_op0');
  });

  it('buildToolCatalog picks the richest rendering within budget', () => {
    const entries = [{ name: 'a_tool', description: 'Does A. Details.', group: 'srv' }];
    expect(buildToolCatalog(entries, 1_000)).toEqual({
      level: 'full',
      text: '[srv]\n- a_tool: Does A.',
    });
    expect(buildToolCatalog(entries, 4).level).toBe('names');
    expect(buildToolCatalog(entries, 1).level).toBe('counts');
  });

  it('assembleToolSearch leaves the input alone when nothing is non-core', () => {
    const schema = {
      type: 'function' as const,
      function: { name: 'terminal', description: 't', parameters: {} },
    };
    const out = assembleToolSearch([{ schema, toolset: 'terminal' }], [], { contextLength: 1 });
    expect(out).toEqual({ schemas: [schema], hidden: [] });
  });
});

describe('the bridge tools', () => {
  async function session() {
    const env = setup(40);
    const resolved = await env.defs.resolve({ ...env.request, contextLength: 20_000 });
    const ctx = makeContext({ hiddenTools: resolved.hidden });
    return { ...env, ctx };
  }

  it('tool_search finds hidden tools by keyword', async () => {
    const { registry, ctx } = await session();
    const result = await registry.dispatch('tool_search', { query: 'jira', limit: 3 }, ctx);
    expect(result.status).toBe('ok');
    const lines = result.content.split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines)
      expect(line).toMatch(/^jira_op\d+ \[mcp-jira\]: Operation \d+ of the jira server\.$/);
    const none = await registry.dispatch('tool_search', { query: 'kubernetes' }, ctx);
    expect(none.content).toContain('No searchable tool matches');
  });

  it('tool_describe shows the parameters of a hidden tool only', async () => {
    const { registry, ctx } = await session();
    const result = await registry.dispatch('tool_describe', { name: 'github_op2' }, ctx);
    expect(JSON.parse(result.content)).toMatchObject({
      name: 'github_op2',
      parameters: { required: ['id'] },
    });
    const refused = await registry.dispatch('tool_describe', { name: 'read_file' }, ctx);
    expect(refused.status).toBe('error');
    expect(refused.content).toContain('not one of the searchable tools');
  });

  it('tool_call dispatches the hidden tool with coercion, and refuses visible or unknown ones', async () => {
    const { registry, ctx, calls } = await session();
    const result = await registry.dispatch(
      'tool_call',
      { name: 'jira_op3', arguments: { id: '7' } },
      ctx,
    );
    expect(result).toMatchObject({ status: 'ok', content: 'ran jira_op3' });
    expect(calls).toEqual(['jira_op3:{"id":7}']);
    const asString = await registry.dispatch(
      'tool_call',
      { name: 'jira_op5', arguments: '{"id":1}' },
      ctx,
    );
    expect(asString.content).toBe('ran jira_op5');
    const visible = await registry.dispatch(
      'tool_call',
      { name: 'read_file', arguments: { path: '/x' } },
      ctx,
    );
    expect(visible.status).toBe('error');
    expect(visible.content).toContain('Unknown tool "read_file"');
    const invalid = await registry.dispatch('tool_call', { name: 'jira_op3', arguments: {} }, ctx);
    expect(invalid.status).toBe('error');
    expect(invalid.content).toContain('missing required field(s) "id"');
    expect(invalid.content.match(/\[TOOL_ERROR\]/g)).toHaveLength(1);
  });

  it('the bridge refuses to work when tool search is not active', async () => {
    const { registry } = setup(2);
    const result = await registry.dispatch('tool_search', { query: 'x' }, makeContext());
    expect(result.status).toBe('error');
    expect(result.content).toContain('Tool search is not active');
  });
});
