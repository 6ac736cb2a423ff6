import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callSpec, FILESYSTEM_BIN, specNamed, startHub } from './helpers.js';
import { type HttpServerChild, startEverythingHttp } from './http-server.js';

const children: HttpServerChild[] = [];
afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.stop()));
});

describe('server-everything over HTTP', () => {
  it('connects over Streamable HTTP, lists tools and calls one', async () => {
    const server = await startEverythingHttp('streamableHttp');
    children.push(server);
    const hub = await startHub({
      web: { url: `http://127.0.0.1:${server.port}/mcp`, headers: { 'X-Test': 'yes' } },
    });
    expect(hub.statuses()[0]).toMatchObject({ transport: 'http', state: 'connected' });
    const specs = hub.toolSpecs();
    expect(specs.map((s) => s.name)).toEqual(
      expect.arrayContaining(['mcp_web_echo', 'mcp_web_read_resource']),
    );
    expect(await callSpec(specNamed(specs, 'mcp_web_echo'), { message: 'over http' })).toContain(
      'over http',
    );
  });

  it('falls back to SSE for a server that speaks only the older transport', async () => {
    const server = await startEverythingHttp('sse');
    children.push(server);
    const hub = await startHub({ old: { url: `http://127.0.0.1:${server.port}/sse` } });
    expect(hub.statuses()[0]).toMatchObject({ transport: 'sse', state: 'connected' });
    expect(
      await callSpec(specNamed(hub.toolSpecs(), 'mcp_old_echo'), { message: 'via sse' }),
    ).toContain('via sse');
  });

  it('reconnects when the HTTP server goes away and comes back on the same port', async () => {
    const first = await startEverythingHttp('streamableHttp');
    children.push(first);
    const hub = await startHub(
      { web: { url: `http://127.0.0.1:${first.port}/mcp`, timeout: 30 } },
      { reconnectBaseMs: 200 },
    );
    const echo = specNamed(hub.toolSpecs(), 'mcp_web_echo');
    await first.stop();
    const failed = await callSpec(echo, { message: 'lost' });
    expect(failed).toMatch(/^Error: tool "echo" on MCP server "web" failed: .*reconnecting/);
    expect(hub.statuses()[0]?.state).toBe('reconnecting');
    children.push(await startEverythingHttp('streamableHttp', first.port));
    expect(await callSpec(echo, { message: 'back' })).toContain('back');
    expect(hub.statuses()[0]?.state).toBe('connected');
  });

  it('reports an unreachable URL as failed, naming both transports', async () => {
    const hub = await startHub({ gone: { url: 'http://127.0.0.1:9/mcp', connect_timeout: 5 } });
    const [status] = hub.statuses();
    expect(status?.state).toBe('failed');
    expect(status?.error).toMatch(/Streamable HTTP failed .*SSE fallback failed/);
    expect(hub.toolSpecs()).toEqual([]);
  });
});

describe('server-filesystem over stdio', () => {
  it('reads and writes files in its allowed folder', async () => {
    const root = mkdtempSync(join(process.env.HERMES_HOME ?? '/tmp', 'fs-'));
    writeFileSync(join(root, 'note.txt'), 'the filesystem server read me');
    const hub = await startHub({ files: { command: FILESYSTEM_BIN, args: [root] } });
    const specs = hub.toolSpecs();
    expect(specs.every((s) => s.toolset === 'mcp-files')).toBe(true);
    const read = await callSpec(specNamed(specs, 'mcp_files_read_text_file'), {
      path: join(root, 'note.txt'),
    });
    expect(read).toContain('the filesystem server read me');
    await callSpec(specNamed(specs, 'mcp_files_write_file'), {
      path: join(root, 'out.txt'),
      content: 'written',
    });
    expect(readFileSync(join(root, 'out.txt'), 'utf8')).toBe('written');
    const outside = await callSpec(specNamed(specs, 'mcp_files_read_text_file'), {
      path: '/etc/hostname',
    });
    expect(outside).toMatch(
      /^Error from MCP tool "read_text_file" on server "files": .*(denied|outside)/i,
    );
  });
});
