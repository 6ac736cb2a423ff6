/**
 * End-to-end: runs the built executable, dist/bin.js, as a real subprocess. Needs a build first;
 * `turbo run test` builds it (see this package's turbo.json).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string };

interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function start(args: readonly string[]): {
  child: ChildProcessWithoutNullStreams;
  done: Promise<Result>;
  stdout: () => string;
} {
  const child = spawn(process.execPath, [bin, ...args], { env: process.env });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<Result>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done, stdout: () => stdout };
}

/** Children still alive; a failed test must not leave a server running. */
const running = new Set<ChildProcessWithoutNullStreams>();

afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

beforeAll(() => {
  if (!existsSync(bin)) {
    throw new Error(
      `${bin} does not exist: build the testkit first ` +
        '(`npx -y pnpm@12.4.2 exec turbo run build --filter=@hermes/testkit`, ' +
        'or run the tests through `turbo run test`, which builds first).',
    );
  }
});

describe('dist/bin.js', () => {
  it('starts with a node shebang', () => {
    expect(readFileSync(bin, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  });

  it('--version prints the package version and exits 0', async () => {
    const result = await start(['--version']).done;
    expect(result).toMatchObject({ code: 0, stdout: `hermes-testkit ${version}\n`, stderr: '' });
  });

  it('a bad argument exits 2 naming it', async () => {
    const result = await start(['serve', '--nope']).done;
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("'--nope'");
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'serves the script to the openai client until %s, then exits 0',
    async (signal) => {
      const path = join(process.env.HERMES_HOME ?? '', 'script.json');
      writeFileSync(
        path,
        JSON.stringify({ turns: [{ text: 'from the binary' }], models: ['bin-model'] }),
      );
      const run = start(['serve', '--script', path, '--port', '0', '--host', '127.0.0.1']);
      // Waits for the announcement line; the limit is a backstop for a slow process start.
      await expect.poll(run.stdout, { timeout: 45_000, interval: 20 }).toMatch(/\n$/);
      const url = /^hermes-testkit listening on (http:\/\/127\.0\.0\.1:\d+)\n$/.exec(
        run.stdout(),
      )?.[1];
      expect(url).toBeDefined();
      const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'test', maxRetries: 0 });
      const completion = await client.chat.completions.create({
        model: 'bin-model',
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(completion.choices[0]?.message.content).toBe('from the binary');
      run.child.kill(signal);
      const result = await run.done;
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
    },
    60_000,
  );
});
