/**
 * `/rollback` in the REPL, in-process: after a turn in which the (scripted) model overwrote a
 * file, `/rollback` lists the checkpoint with what changed, `/rollback 1` restores the file and
 * says so, and the model is told at the next turn.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { GATEWAY_DEFAULTS } from '@hermes/gateway';
import { learningDefaults } from '@hermes/loop';
import type { HermesConfig } from '@hermes/runtime';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatSession } from '../src/chat/chat-session.ts';
import { LineInput } from '../src/chat/line-input.ts';
import { Renderer } from '../src/chat/renderer.ts';
import { Repl } from '../src/chat/repl.ts';
import { createStyle } from '../src/chat/style.ts';
import { hermesHome, workDir } from './chat-harness.ts';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A REPL on `cwd` fed through a stream; `waitFor` resolves on the write that prints `text`. */
function harness(url: string, cwd: string) {
  let out = '';
  const written = new Set<() => void>();
  const sink = {
    write: (s: string) => {
      out += s;
      for (const wake of [...written]) wake();
    },
  };
  const style = createStyle(false);
  const stdin = new PassThrough();
  const input = new LineInput({ input: stdin });
  const renderer = new Renderer({ out: sink, style, streamText: true, spinner: false });
  const config: HermesConfig = {
    hermesHome: hermesHome(),
    provider: { provider: 'openai', model: 'scripted-model', baseUrl: `${url}/v1`, apiKey: 'test' },
    maxTurns: 10,
    yolo: true,
    skillDirs: [],
    warnings: [],
    gateway: GATEWAY_DEFAULTS,
    platforms: [],
    // No side requests (session titles, reviews) may take the scripted answers.
    learning: learningDefaults({ enabled: false, titles: false }),
  };
  const session = ChatSession.open({ config, cwd, surface: 'interactive' });
  const repl = new Repl({
    session,
    input,
    renderer,
    out: sink,
    style,
    typeAhead: 'queue',
    terminal: false,
  });
  return {
    repl,
    stdin,
    output: () => out,
    waitFor(text: string): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (!out.includes(text)) return;
          written.delete(check);
          clearTimeout(backstop);
          resolve();
        };
        // Only a backstop for a hang; the test waits for the printed text.
        const backstop = setTimeout(() => {
          written.delete(check);
          reject(new Error(`${JSON.stringify(text)} was never printed; so far:\n${out}`));
        }, 60_000);
        written.add(check);
        check();
      });
    },
  };
}

describe('/rollback in the REPL', () => {
  it('lists the checkpoint, restores the overwritten file and tells the model', async () => {
    const cwd = workDir();
    const file = join(cwd, 'draft.md');
    writeFileSync(file, 'my careful draft\n');
    server = await startScriptedServer(
      script()
        .toolCall('write_file', { path: file, content: 'clobbered\n' })
        .next()
        .text('I rewrote it.')
        .next()
        .text('Understood.'),
    );
    const h = harness(server.url, cwd);
    const done = h.repl.run();
    h.stdin.write('/rollback\n');
    await h.waitFor('No checkpoints yet');
    h.stdin.write('rewrite my draft\n');
    await h.waitFor('I rewrote it.');
    expect(readFileSync(file, 'utf8')).toBe('clobbered\n');
    h.stdin.write('/rollback\n');
    await h.waitFor('before write_file');
    expect(h.output()).toMatch(/1\. \S+ before write_file\n\s+draft\.md \| 2 \+-/);
    h.stdin.write('/rollback 1\n');
    await h.waitFor('Restored: draft.md');
    expect(readFileSync(file, 'utf8')).toBe('my careful draft\n');
    h.stdin.write('what changed?\n');
    await h.waitFor('Understood.');
    h.stdin.end();
    expect(await done).toBe(0);
    await h.repl.session.close();
    const last = JSON.stringify(server.requests.at(-1)?.body);
    expect(last).toContain('the user ran /rollback');
    expect(last).toContain('Restored: draft.md');
  });

  it('is listed in /help', async () => {
    server = await startScriptedServer(script().text('unused'));
    const h = harness(server.url, workDir());
    const done = h.repl.run();
    h.stdin.write('/help\n');
    await h.waitFor('/rollback [n]');
    h.stdin.end();
    expect(await done).toBe(0);
    await h.repl.session.close();
    expect(server.requests).toHaveLength(0);
  });
});
