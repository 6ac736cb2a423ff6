import { describe, expect, it } from 'vitest';
import {
  buildStdioEnv,
  isToolExposed,
  looksLikeShellTool,
  McpServersSectionSchema,
  mcpToolName,
} from '../src/index.js';
import { assignToolNames, nameKey } from '../src/tool-naming.js';

describe('mcpToolName', () => {
  it('is mcp_<server>_<tool>, sanitized to [A-Za-z0-9_-] and 64 characters', () => {
    expect(mcpToolName('git', 'log')).toBe('mcp_git_log');
    expect(mcpToolName('my.server', 'read file/v2')).toBe('mcp_my_server_read_file_v2');
    const long = mcpToolName('s', 'x'.repeat(100));
    expect(long).toHaveLength(64);
    expect(long).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });

  it('resolves collisions deterministically: an exact name keeps it, others get _2, _3 in sorted order', () => {
    const requests = [
      { server: 'a', tool: 'x.y', wanted: mcpToolName('a', 'x.y') },
      { server: 'a', tool: 'x_y', wanted: mcpToolName('a', 'x_y') },
      { server: 'a', tool: 'x/y', wanted: mcpToolName('a', 'x/y') },
    ];
    for (const order of [requests, [...requests].reverse()]) {
      const names = assignToolNames(order);
      expect(names.get(nameKey('a', 'x_y'))).toBe('mcp_a_x_y');
      expect(names.get(nameKey('a', 'x.y'))).toBe('mcp_a_x_y_2');
      expect(names.get(nameKey('a', 'x/y'))).toBe('mcp_a_x_y_3');
    }
  });

  it('keeps a reserved utility name and moves a colliding server tool aside', () => {
    const names = assignToolNames([
      { server: 's', tool: 'list_resources', wanted: 'mcp_s_list_resources' },
      { server: 's', tool: '\u0000list_resources', wanted: 'mcp_s_list_resources', reserved: true },
    ]);
    expect(names.get(nameKey('s', '\u0000list_resources'))).toBe('mcp_s_list_resources');
    expect(names.get(nameKey('s', 'list_resources'))).toBe('mcp_s_list_resources_2');
  });
});

describe('McpServersSectionSchema', () => {
  it('fills the defaults for stdio and http entries', () => {
    const parsed = McpServersSectionSchema.parse({
      a: { command: 'x' },
      b: { url: 'https://e.test/mcp' },
    });
    expect(parsed.a).toEqual({
      command: 'x',
      enabled: true,
      timeout: 300,
      connect_timeout: 60,
      approval: 'auto',
    });
    expect(parsed.b).toMatchObject({
      url: 'https://e.test/mcp',
      timeout: 300,
      connect_timeout: 60,
    });
  });

  it('names a misspelt key, a bad url and a bad approval mode', () => {
    const typo = McpServersSectionSchema.safeParse({ a: { command: 'x', timout: 5 } });
    expect(typo.error?.issues[0]?.message).toMatch(/timout/);
    expect(typo.error?.issues[0]?.path).toEqual(['a']);
    const ftp = McpServersSectionSchema.safeParse({ a: { url: 'ftp://x/y' } });
    expect(ftp.error?.issues[0]?.message).toMatch(/http/);
    const mode = McpServersSectionSchema.safeParse({ a: { command: 'x', approval: 'sometimes' } });
    expect(mode.error?.issues[0]?.path).toEqual(['a', 'approval']);
    expect(McpServersSectionSchema.safeParse({ 'bad name': { command: 'x' } }).success).toBe(false);
  });
});

describe('helpers', () => {
  it('buildStdioEnv keeps only the allowed variables plus the server env', () => {
    const env = buildStdioEnv(
      {
        PATH: '/bin',
        LC_CTYPE: 'C',
        OPENAI_API_KEY: 'k',
        LOGNAME: 'u',
        FN: '() { evil; }',
        SHELL: '() {x}',
      },
      { TOKEN: 't' },
    );
    expect(env).toEqual({ PATH: '/bin', LC_CTYPE: 'C', TOKEN: 't' });
  });

  it('include then exclude, on the server names', () => {
    expect(isToolExposed('a', { include: ['a', 'b'], exclude: ['b'] })).toBe(true);
    expect(isToolExposed('b', { include: ['a', 'b'], exclude: ['b'] })).toBe(false);
    expect(isToolExposed('c', { include: ['a'] })).toBe(false);
    expect(isToolExposed('c', undefined)).toBe(true);
  });

  it('spots shell tools by name or description', () => {
    expect(looksLikeShellTool('execute_command', undefined)).toBe(true);
    expect(looksLikeShellTool('bash', undefined)).toBe(true);
    expect(looksLikeShellTool('query', 'Run a command in the terminal')).toBe(true);
    expect(looksLikeShellTool('lookup', 'Looks up a word.')).toBe(false);
    expect(looksLikeShellTool('executor_stats', 'Counts things.')).toBe(false);
  });
});
