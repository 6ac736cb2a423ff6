/**
 * The learning loop in the chat, in-process: a background review's one line is printed (dim) by
 * the listener the REPL gives `ChatSession`, `/learn` prints a review's line on demand, and the
 * title the `title` slot gave the session is what `hermes sessions list` shows and what
 * `/resume <title>` finds.
 */
import { PassThrough } from 'node:stream';
import { GATEWAY_DEFAULTS } from '@hermes/gateway';
import type { HermesConfig } from '@hermes/runtime';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatSession } from '../src/chat/chat-session.ts';
import { LineInput } from '../src/chat/line-input.ts';
import { Renderer } from '../src/chat/renderer.ts';
import { Repl } from '../src/chat/repl.ts';
import { createStyle } from '../src/chat/style.ts';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';
import { hermesHome, workDir } from './chat-harness.ts';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serve(builder: ReturnType<typeof script>): Promise<ScriptedServer> {
  const server = await startScriptedServer(builder);
  servers.push(server);
  return server;
}

const slot = (server: ScriptedServer, model: string) => ({
  provider: { provider: 'custom', model, baseUrl: `${server.url}/v1`, apiKey: 'no-key-required' },
});

/** A REPL on `main` whose review and title slots are their own scripted models. */
function chat(mainServer: ScriptedServer, review: ScriptedServer, title: ScriptedServer) {
  let out = '';
  const sink = {
    write: (s: string) => {
      out += s;
    },
  };
  const style = createStyle(false);
  const stdin = new PassThrough();
  const input = new LineInput({ input: stdin });
  const renderer = new Renderer({ out: sink, style, streamText: true, spinner: false });
  const config: HermesConfig = {
    hermesHome: hermesHome(),
    provider: {
      provider: 'openai',
      model: 'scripted-model',
      baseUrl: `${mainServer.url}/v1`,
      apiKey: 'test',
    },
    maxTurns: 10,
    yolo: false,
    skillDirs: [],
    warnings: [],
    gateway: GATEWAY_DEFAULTS,
    platforms: [],
    auxiliary: { review: slot(review, 'review-model'), title: slot(title, 'title-model') },
    learning: {
      enabled: true,
      memoryReviewEvery: 1,
      skillReviewMinToolCalls: 8,
      maxIterations: 8,
      maxInputChars: 40_000,
      notify: false,
      titles: true,
    },
  };
  const session = ChatSession.open({
    config,
    cwd: workDir(),
    surface: 'interactive',
    // What start-repl.ts gives the session: the line, dim, in the transcript.
    onReview: (line) => renderer.line(style.dim(`🧠 ${line}`)),
  });
  const repl = new Repl({
    session,
    input,
    renderer,
    out: sink,
    style,
    typeAhead: 'queue',
    terminal: false,
  });
  return { repl, stdin, output: () => out };
}

describe('the learning loop in the chat', () => {
  it('prints the background review line, /learn reviews on demand, and the title reaches sessions list and /resume', async () => {
    const mainServer = await serve(script().text('Nice to meet you, Ana.'));
    const review = await serve(script().text('Nothing to keep.').times(2));
    const title = await serve(script().text('Ana introduces herself'));
    const c = chat(mainServer, review, title);
    const done = c.repl.run();

    c.stdin.write('hi, my name is Ana\n');
    await vi.waitFor(() => expect(c.output()).toContain('🧠 Nothing new to keep.'), {
      timeout: 15_000,
    });
    await c.repl.session.learning.idle();

    const list = capture();
    expect(await main(['sessions', 'list'], list.io)).toBe(0);
    expect(list.stdout()).toContain('Ana introduces herself');

    c.stdin.write('/learn\n');
    await vi.waitFor(() =>
      expect(c.output()).toMatch(/🧠 Nothing new to keep\.[\s\S]*Nothing new to keep\./),
    );
    c.stdin.write('/resume Ana introduces\n');
    await vi.waitFor(() => expect(c.output()).toContain('"Ana introduces herself"'));
    c.stdin.end();
    expect(await done).toBe(0);
    await c.repl.session.close();
    expect(review.requests).toHaveLength(2);
    expect(mainServer.requests).toHaveLength(1);
  });
});
