/**
 * MCP servers in the gateway: `runGatewayCommand` starts the servers config.yaml names (here
 * server-everything over stdio, a real child process) and every agent behind the api_server gets
 * their tools; the hub is closed when the gateway stops.
 */
import { EventEmitter } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { script, startScriptedServer } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { type ProcessEvents, runGatewayCommand } from '../src/index.ts';

const EVERYTHING = fileURLToPath(
  new URL('../../mcp/node_modules/.bin/mcp-server-everything', import.meta.url),
);
const home = () => process.env.HERMES_HOME as string;
const API_KEY = 'mcp-gw-key-0123456789abcdef012';

/** Collects what is written; resolves the first match of a pattern. */
function capture() {
  let text = '';
  const waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  return {
    text: () => text,
    write: (chunk: string): boolean => {
      text += chunk;
      for (const w of [...waiters]) {
        const m = text.match(w.pattern);
        if (m) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(m);
        }
      }
      return true;
    },
    waitFor(pattern: RegExp): Promise<RegExpMatchArray> {
      const m = text.match(pattern);
      return m ? Promise.resolve(m) : new Promise((resolve) => waiters.push({ pattern, resolve }));
    },
  };
}

describe('MCP in the gateway', { timeout: 90_000 }, () => {
  it('gives the api_server agents the MCP tools, and the call result reaches the model', async () => {
    const model = await startScriptedServer(
      script()
        .toolCall('mcp_everything_echo', { message: 'from the gateway' })
        .next()
        .text('echoed'),
    );
    writeFileSync(
      join(home(), 'config.yaml'),
      `model:\n  provider: openai\n  default: m\n  base_url: ${model.baseUrl('openai-chat')}\n` +
        'platforms:\n  api_server:\n    enabled: true\n    port: 0\n' +
        `mcp_servers:\n  everything:\n    command: ${EVERYTHING}\n    args: [stdio]\n` +
        '    tools:\n      include: [echo]\n',
    );
    const stdout = capture();
    const stderr = capture();
    const signals = new EventEmitter();
    const exit = runGatewayCommand({
      hermesHome: home(),
      env: { OPENAI_API_KEY: 'sk-test', API_SERVER_KEY: API_KEY, PATH: process.env.PATH ?? '' },
      stdout,
      stderr,
      signals: signals as unknown as ProcessEvents,
      cwd: home(),
      deps: { agents: { cwd: home() } },
    });
    try {
      const started = await Promise.race([
        stdout.waitFor(/api_server listening on (http:\/\/127\.0\.0\.1:\d+)\n/),
        exit.then((code) => `exited ${code}: ${stderr.text()}`),
      ]);
      if (typeof started === 'string') throw new Error(started);
      const response = await fetch(`${started[1]}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'hermes-agent',
          messages: [{ role: 'user', content: 'echo it' }],
        }),
      });
      expect(response.status).toBe(200);
      expect(JSON.stringify(await response.json())).toContain('echoed');
      expect(JSON.stringify(model.requests[0]?.body)).toContain('"name":"mcp_everything_echo"');
      expect(JSON.stringify(model.requests[1]?.body)).toContain('from the gateway');
    } finally {
      signals.emit('SIGTERM', 'SIGTERM');
      expect(await exit).toBe(0);
      await model.close();
    }
  });
});
