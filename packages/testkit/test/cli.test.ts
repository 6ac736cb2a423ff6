/** The `hermes-testkit` command line, driven in-process through `main`. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, type TestkitCliIo } from '../src/cli.ts';
import { VERSION } from '../src/version.ts';

function capture(signal?: AbortSignal) {
  const out: string[] = [];
  const err: string[] = [];
  const io: TestkitCliIo = {
    stdout: { write: (chunk: string) => out.push(chunk) },
    stderr: { write: (chunk: string) => err.push(chunk) },
    ...(signal ? { signal } : {}),
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

function scriptFile(content: unknown): string {
  const path = join(process.env.HERMES_HOME ?? '', 'script.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('hermes-testkit main', () => {
  it('--help prints usage and --version the version', async () => {
    const help = capture();
    expect(await main(['--help'], help.io)).toBe(0);
    expect(help.stdout()).toContain('hermes-testkit serve --script FILE [--port N] [--host H]');
    const version = capture();
    expect(await main(['-V'], version.io)).toBe(0);
    expect(version.stdout()).toBe(`hermes-testkit ${VERSION}\n`);
  });

  it.each([
    [['--bogus'], "'--bogus'"],
    [[], 'missing command'],
    [['launch'], "'launch'"],
    [['serve'], '--script'],
    [['serve', '--script'], '--script'],
    [['serve', '--script', 'x.json', '--port', 'abc'], "'abc'"],
    [['serve', '--script', 'x.json', '--port', '70000'], '--port'],
    [['serve', 'extra', '--script', 'x.json'], "'extra'"],
  ])('%j exits 2 naming the argument', async (argv, named) => {
    const c = capture();
    expect(await main(argv, c.io)).toBe(2);
    expect(c.stderr()).toContain(named);
    expect(c.stderr()).toContain('--help');
  });

  it('serve with a bad script file exits 1 with the path inside the file', async () => {
    const c = capture();
    const path = scriptFile({ turns: [{ times: -1 }] });
    expect(await main(['serve', '--script', path], c.io)).toBe(1);
    expect(c.stderr()).toContain('turns[0].times');
  });

  it('serve announces its URL, answers requests, and stops on the signal', async () => {
    const stop = new AbortController();
    const c = capture(stop.signal);
    const path = scriptFile({ turns: [{ text: 'served' }] });
    const running = main(['serve', '--script', path, '--port', '0'], c.io);
    await expect.poll(() => c.stdout(), { timeout: 10_000 }).toMatch(/listening on/);
    const url = /hermes-testkit listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(c.stdout())?.[1];
    expect(url).toBeDefined();
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(await response.json()).toMatchObject({ choices: [{ message: { content: 'served' } }] });
    stop.abort();
    expect(await running).toBe(0);
    await expect(fetch(`${url}/v1/models`)).rejects.toThrow();
  });

  it('serve on a port in use exits 1', async () => {
    const first = new AbortController();
    const a = capture(first.signal);
    const path = scriptFile({ turns: [] });
    const running = main(['serve', '--script', path], a.io);
    await expect.poll(() => a.stdout(), { timeout: 10_000 }).toMatch(/listening on/);
    const port = /:(\d+)\n/.exec(a.stdout())?.[1] ?? '';
    const b = capture();
    expect(await main(['serve', '--script', path, '--port', port], b.io)).toBe(1);
    expect(b.stderr()).toContain(`cannot listen on 127.0.0.1:${port}`);
    first.abort();
    await running;
  });
});
