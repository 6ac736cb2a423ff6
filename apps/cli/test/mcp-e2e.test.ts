/**
 * MCP end to end, through the built `hermes` binary and the scripted model, against the official
 * reference servers (dev dependencies of @hermes/mcp; no network): server-everything and
 * server-filesystem over stdio, server-everything over Streamable HTTP (started here on a free
 * port), and `/reload-mcp` in the REPL. The model calls a tool of each server; the tool's result
 * must reach the next request. The stdio child's environment must hold no API key. With
 * @hermes/mcp's fixture server: a call that never answers times out with a clear result, and a
 * tool added during a turn (tools/list_changed) is offered from the REPL's next turn.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  configureScriptedModel,
  hermesHome,
  Interactive,
  runHermes,
  workDir,
} from './chat-harness.ts';
import { StreamText } from './stream-text.ts';

const BIN_DIR = fileURLToPath(new URL('../../../packages/mcp/node_modules/.bin/', import.meta.url));
const EVERYTHING = join(BIN_DIR, 'mcp-server-everything');
const FILESYSTEM = join(BIN_DIR, 'mcp-server-filesystem');
/** @hermes/mcp's own test server: `add_tool` announces tools/list_changed, `hang` never answers. */
const FIXTURE = fileURLToPath(
  new URL('../../../packages/mcp/test/fixtures/test-server.mjs', import.meta.url),
);
/** An API key the stdio servers must never see. */
const SECRET_KEY = 'sk-e2e-never-leaves-hermes-0123456789';

let model: ScriptedServer | undefined;
let httpServer: ChildProcess | undefined;

afterEach(async () => {
  await model?.close();
  model = undefined;
  if (httpServer && httpServer.exitCode === null) {
    const exited = new Promise((resolve) => httpServer?.once('exit', resolve));
    httpServer.kill('SIGTERM');
    await exited;
  }
  httpServer = undefined;
});

/** The content of the tool message answering `callId` in request `index`. */
function toolResult(index: number, callId: string): string {
  const body = model?.requests[index]?.body as {
    messages?: { role: string; tool_call_id?: string; content?: unknown }[];
  };
  const message = body?.messages?.find((m) => m.role === 'tool' && m.tool_call_id === callId);
  return JSON.stringify(message?.content ?? null);
}

function request(index: number): string {
  return JSON.stringify(model?.requests[index]?.body ?? null);
}

/** The tool names the model was offered in request `index`. */
function offered(index: number): string[] {
  const body = model?.requests[index]?.body as { tools?: { function: { name: string } }[] };
  return (body?.tools ?? []).map((tool) => tool.function.name);
}

/** A port nothing listens on now (the OS picks it; the server started next takes it). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** server-everything over Streamable HTTP; resolves once it says it listens. */
async function startHttpEverything(): Promise<string> {
  const port = await freePort();
  httpServer = spawn(EVERYTHING, ['streamableHttp'], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr = new StreamText(httpServer.stderr as NodeJS.ReadableStream);
  await stderr.waitFor(`listening on port ${port}`);
  return `http://127.0.0.1:${port}/mcp`;
}

describe('MCP servers in hermes chat', { timeout: 120_000 }, () => {
  it('calls tools of server-everything and server-filesystem over stdio; no API key in their environment', async () => {
    const files = mkdtempSync(join(tmpdir(), 'hermes-mcp-files-'));
    writeFileSync(join(files, 'notes.txt'), 'the launch code is tangerine\n');
    model = await startScriptedServer(
      script()
        .toolCall('mcp_everything_echo', { message: 'ping from the model' }, 'call_echo')
        .toolCall('mcp_files_read_text_file', { path: join(files, 'notes.txt') }, 'call_read')
        .next()
        .toolCall('mcp_everything_get-env', {}, 'call_env')
        .next()
        .text('All tools answered.'),
    );
    configureScriptedModel(
      model.url,
      `mcp_servers:\n  everything:\n    command: ${EVERYTHING}\n    args: [stdio]\n    tools:\n      include: [echo, get-env]\n` +
        `  files:\n    command: ${FILESYSTEM}\n    args: [${JSON.stringify(files)}]\n    tools:\n      exclude: [write_file, edit_file, move_file]\n`,
    );
    const result = await runHermes(['chat', '-q', 'use the tools'], workDir(), {
      OPENAI_API_KEY: SECRET_KEY,
      ANTHROPIC_API_KEY: SECRET_KEY,
    });
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('All tools answered.\n');
    // include / exclude decide what is offered.
    const tools = offered(0);
    expect(tools).toEqual(
      expect.arrayContaining([
        'mcp_everything_echo',
        'mcp_everything_get-env',
        'mcp_files_read_text_file',
        'mcp_files_list_directory',
      ]),
    );
    expect(tools).not.toContain('mcp_everything_get-sum');
    expect(tools).not.toContain('mcp_files_write_file');
    // Each result reaches the next request.
    expect(request(1)).toContain('Echo: ping from the model');
    expect(request(1)).toContain('the launch code is tangerine');
    // The stdio child's environment: PATH and HOME, never a key.
    const envDump = toolResult(2, 'call_env');
    expect(envDump).toContain('PATH');
    expect(envDump).not.toContain(SECRET_KEY);
    expect(envDump).not.toContain('OPENAI_API_KEY');
    expect(envDump).not.toContain('HERMES_HOME');
  });

  it('calls a tool of server-everything over Streamable HTTP', async () => {
    const url = await startHttpEverything();
    model = await startScriptedServer(
      script()
        .toolCall('mcp_web_echo', { message: 'over http' }, 'call_http')
        .next()
        .text('HTTP works.'),
    );
    configureScriptedModel(model.url, `mcp_servers:\n  web:\n    url: ${url}\n`);
    const result = await runHermes(['chat', '-q', 'echo over http'], workDir());
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('HTTP works.\n');
    expect(offered(0)).toContain('mcp_web_echo');
    expect(request(1)).toContain('Echo: over http');
  });

  it('reports a server that cannot start once, and answers with the others', async () => {
    model = await startScriptedServer(script().text('Still here.'));
    configureScriptedModel(
      model.url,
      `mcp_servers:\n  ghost:\n    command: ${join(hermesHome(), 'no-such-server')}\n`,
    );
    const result = await runHermes(['chat', '-q', 'hello'], workDir());
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Still here.\n');
    expect(result.stderr.match(/ghost/g)?.length).toBe(1);
  });

  it('/reload-mcp in the REPL connects a server added to config.yaml; the next turn has its tools', async () => {
    model = await startScriptedServer(
      script()
        .text('No tools yet.')
        .next()
        .toolCall('mcp_everything_echo', { message: 'after reload' }, 'call_reload')
        .next()
        .text('Reloaded tools work.'),
    );
    configureScriptedModel(model.url);
    const chat = new Interactive(['chat'], workDir());
    try {
      await chat.waitFor('Type /help');
      chat.send('first');
      await chat.waitFor('No tools yet.');
      configureScriptedModel(
        model.url,
        `mcp_servers:\n  everything:\n    command: ${EVERYTHING}\n    args: [stdio]\n`,
      );
      chat.send('/reload-mcp');
      await chat.waitFor('MCP servers reloaded:');
      await chat.waitFor('everything (stdio): ');
      chat.send('now echo');
      await chat.waitFor('Reloaded tools work.');
      expect(await chat.end()).toBe(0);
    } finally {
      chat.kill();
    }
    expect(offered(0)).not.toContain('mcp_everything_echo');
    expect(offered(1)).toContain('mcp_everything_echo');
    expect(request(2)).toContain('Echo: after reload');
    // The same session went on: the first exchange is in the later request.
    expect(request(2)).toContain('No tools yet.');
  });

  it('a tool that never answers ends with a clear result naming the server, tool and seconds', async () => {
    model = await startScriptedServer(
      script().toolCall('mcp_fx_hang', {}, 'call_hang').next().text('It timed out.'),
    );
    configureScriptedModel(
      model.url,
      `mcp_servers:\n  fx:\n    command: ${process.execPath}\n    args: [${JSON.stringify(FIXTURE)}]\n    timeout: 1\n`,
    );
    const result = await runHermes(['chat', '-q', 'hang please'], workDir());
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('It timed out.\n');
    const answer = toolResult(1, 'call_hang');
    expect(answer).toContain('fx');
    expect(answer).toContain('hang');
    expect(answer).toContain('timed out after 1 s');
  });

  it('a tool list that changed during a turn is offered from the next turn of the REPL on', async () => {
    model = await startScriptedServer(
      script()
        .toolCall('mcp_fx_add_tool', { name: 'fresh' }, 'call_add')
        .next()
        .text('Added a tool.')
        .next()
        .toolCall('mcp_fx_fresh', {}, 'call_fresh')
        .next()
        .text('The new tool answered.'),
    );
    configureScriptedModel(
      model.url,
      `mcp_servers:\n  fx:\n    command: ${process.execPath}\n    args: [${JSON.stringify(FIXTURE)}]\n`,
    );
    const chat = new Interactive(['chat'], workDir());
    try {
      await chat.waitFor('Type /help');
      chat.send('add a tool');
      await chat.waitFor('Added a tool.');
      chat.send('use it');
      await chat.waitFor('The new tool answered.');
      expect(await chat.end()).toBe(0);
    } finally {
      chat.kill();
    }
    expect(offered(0)).not.toContain('mcp_fx_fresh');
    expect(offered(2)).toContain('mcp_fx_fresh');
    expect(toolResult(3, 'call_fresh')).toContain('hello from fresh');
  });
});
