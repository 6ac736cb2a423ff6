/**
 * End-to-end `hermes chat -q` against a scripted model: the built binary, a real tool loop
 * (write_file, read_file, terminal) in a temporary working directory, first-run and error paths.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { configureScriptedModel, hermesHome, runHermes, workDir } from './chat-harness.ts';

let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('hermes chat -q', () => {
  it('runs a scripted tool loop that writes and reads a file and runs a command', async () => {
    server = await startScriptedServer(
      script()
        .toolCall('write_file', { path: 'notes.txt', content: 'hello from hermes\n' })
        .next()
        .toolCall('read_file', { path: 'notes.txt' })
        .next()
        .toolCall('terminal', { command: 'ls && cat notes.txt' })
        .usage({ inputTokens: 1200, outputTokens: 30, cacheReadTokens: 800 })
        .text('The file says hello.'),
    );
    configureScriptedModel(server.url);
    const cwd = workDir();
    const result = await runHermes(['chat', '-q', 'make a note and show it'], cwd);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('The file says hello.\n');
    expect(readFileSync(join(cwd, 'notes.txt'), 'utf8')).toBe('hello from hermes\n');
    // One progress line per tool call, on stderr, with the outcome.
    expect(result.stderr).toMatch(/✍️ write_file {2}notes\.txt .*✓/);
    expect(result.stderr).toMatch(/📖 read_file {2}notes\.txt .*✓/);
    expect(result.stderr).toMatch(/💻 terminal {2}ls && cat notes\.txt .*✓/);
    expect(result.stderr).toContain('800 cached');
    // The terminal tool really ran: its output reached the model in the next request.
    const last = JSON.stringify(server.requests.at(-1)?.body);
    expect(last).toContain('hello from hermes');
    expect(server.remaining()).toBe(0);
    // The turn was logged, without the conversation's text.
    const log = readFileSync(join(hermesHome(), 'logs', 'agent.log'), 'utf8');
    expect(log).toContain('turn ended');
    expect(log).not.toContain('hello from hermes');
  });

  it('--json prints the turn result object', async () => {
    server = await startScriptedServer(script().text('Forty-two.'));
    configureScriptedModel(server.url);
    const result = await runHermes(['chat', '-q', 'answer?', '--json', '--quiet'], workDir());
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const parsed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(parsed).toMatchObject({
      finalResponse: 'Forty-two.',
      completed: true,
      exitReason: 'completed',
    });
    expect(typeof parsed.sessionId).toBe('string');
  });

  it('denies a flagged command by default (single_query surface) and --resume continues a session', async () => {
    server = await startScriptedServer(
      script()
        .toolCall('terminal', { command: 'rm -r keepme' })
        .text('Could not delete.')
        .text('I remember.'),
    );
    configureScriptedModel(server.url);
    const cwd = workDir();
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(cwd, 'keepme'));
    const first = await runHermes(['chat', '-q', 'delete keepme', '--json'], cwd);
    expect(first.code).toBe(0);
    expect(existsSync(join(cwd, 'keepme'))).toBe(true);
    const { sessionId } = JSON.parse(first.stdout) as { sessionId: string };
    const second = await runHermes(['chat', '-q', 'still there?', '--resume', sessionId], cwd);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('I remember.\n');
    const body = JSON.stringify(server.requests.at(-1)?.body);
    expect(body).toContain('delete keepme'); // the earlier turn came along
  });

  it('with no model configured, says so in one line naming hermes setup, exit 1', async () => {
    const result = await runHermes(['chat'], workDir());
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('hermes setup');
  });

  it('an unreachable base URL gives a classified one-line error, not a stack trace', async () => {
    const port = await freePort();
    configureScriptedModel(`http://127.0.0.1:${port}`);
    const result = await runHermes(['chat', '-q', 'hello', '--quiet'], workDir());
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^hermes: the model could not be reached/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('rejects a bad option value, naming it (exit 2)', async () => {
    const result = await runHermes(['chat', '-q', 'x', '--max-turns', 'lots'], workDir());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--max-turns');
    expect(hermesHome()).toBeTruthy();
  });
});

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
