/**
 * The REPL in-process, driven through a PassThrough stream: type-ahead as a redirect (the
 * terminal behaviour, which a pipe-driven subprocess cannot show) and the clarify prompt.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { GATEWAY_DEFAULTS } from '@hermes/gateway';
import { learningDefaults } from '@hermes/loop';
import type { HermesConfig } from '@hermes/runtime';
import { openSessionStore } from '@hermes/state';
import { faults, type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import type { Asker } from '../src/chat/asker.ts';
import { ChatSession } from '../src/chat/chat-session.ts';
import { terminalClarify } from '../src/chat/clarify-prompt.ts';
import { NO_ENTRY } from '../src/chat/entry-queue.ts';
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

interface Harness {
  readonly repl: Repl;
  readonly stdin: PassThrough;
  output(): string;
  waitFor(text: string): Promise<void>;
}

function harness(url: string, typeAhead: 'redirect' | 'queue'): Harness {
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
  const asker: Asker = {
    async ask(details, question, signal) {
      renderer.line(`${details}\n${question}`);
      const entry = await input.queue.next(signal, true);
      return entry === NO_ENTRY ? undefined : entry;
    },
  };
  const config: HermesConfig = {
    hermesHome: hermesHome(),
    provider: { provider: 'openai', model: 'scripted-model', baseUrl: `${url}/v1`, apiKey: 'test' },
    maxTurns: 10,
    yolo: false,
    skillDirs: [],
    warnings: [],
    gateway: GATEWAY_DEFAULTS,
    platforms: [],
    // No session titles: a title request would take the next scripted answer.
    learning: learningDefaults({ titles: false }),
  };
  const session = ChatSession.open({
    config,
    cwd: workDir(),
    surface: 'interactive',
    clarify: terminalClarify(asker, style),
  });
  const repl = new Repl({ session, input, renderer, out: sink, style, typeAhead, terminal: false });
  return {
    repl,
    stdin,
    output: () => out,
    // Resolves on the write that prints `text`; the timer is only a backstop for a hang.
    waitFor(text) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (!out.includes(text)) return;
          written.delete(check);
          clearTimeout(backstop);
          resolve();
        };
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

describe('REPL in-process', () => {
  it('type-ahead during a streaming answer redirects the turn', async () => {
    server = await startScriptedServer(
      script()
        // The answer stops mid-stream and never finishes, so only the redirect can end the turn
        // (no race against the rest of the stream).
        .text('Here is a very long and winding answer that goes on and on about many things.')
        .chunking({ textChunkSize: 4 })
        .fault(faults.stall(6))
        .text('Short version.')
        .match({ lastUserIncludes: 'shorter please' }),
    );
    const h = harness(server.url, 'redirect');
    const done = h.repl.run();
    h.stdin.write('tell me everything\n');
    await h.waitFor('Here is a');
    h.stdin.write('shorter please\n');
    await h.waitFor('Short version.');
    h.stdin.end();
    expect(await done).toBe(0);
    await h.repl.session.close();
    expect(h.output()).toContain('↪ redirected');
    expect(h.output()).not.toContain('many things.');
    const last = server.requests.at(-1)?.body as { messages: { role: string; content: unknown }[] };
    expect(JSON.stringify(last.messages.filter((m) => m.role === 'user'))).toContain(
      'shorter please',
    );
    expect(server.requests).toHaveLength(2);
  });

  it('/compress asks the agent to compress and reports what happened', async () => {
    server = await startScriptedServer(script().text('First answer.'));
    const h = harness(server.url, 'queue');
    const done = h.repl.run();
    h.stdin.write('/compress\n');
    await h.waitFor('Nothing to compress yet.');
    h.stdin.write('hello\n');
    await h.waitFor('First answer.');
    h.stdin.write('/compress the release\n');
    await h.waitFor('Nothing to compress: the conversation is already as short as it can be.');
    h.stdin.end();
    expect(await done).toBe(0);
    await h.repl.session.close();
  });

  it('/usage shows the stored session’s totals, with how often it was compressed', async () => {
    server = await startScriptedServer(
      script().text('First answer.').usage({ inputTokens: 10, outputTokens: 3 }),
    );
    const h = harness(server.url, 'queue');
    const done = h.repl.run();
    h.stdin.write('hello\n');
    await h.waitFor('First answer.');
    const id = h.repl.session.agent.sessionId as string;
    // As the context engine records a successful compression.
    await h.repl.session.store.incrementCounters(id, { compressions: 2 });
    h.stdin.write('/usage\n');
    await h.waitFor('compressed 2×');
    expect(h.output()).toMatch(new RegExp(`Session ${id}: 2 messages · .* · compressed 2×`));
    h.stdin.end();
    expect(await done).toBe(0);
    await h.repl.session.close();
  });

  it('the clarify prompt numbers the choices and returns the picked one to the model', async () => {
    server = await startScriptedServer(
      script()
        .toolCall('clarify', { question: 'Which colour?', choices: ['red', 'blue'] })
        .text('Blue it is.'),
    );
    const h = harness(server.url, 'queue');
    const done = h.repl.run();
    h.stdin.write('paint it\n');
    await h.waitFor('choose 1-2');
    expect(h.output()).toContain('Which colour?');
    expect(h.output()).toMatch(/ 1\. red\n {3}2\. blue/);
    h.stdin.write('2\n');
    await h.waitFor('Blue it is.');
    h.stdin.end();
    expect(await done).toBe(0);
    await h.repl.session.close();
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain('blue');
  });

  it('/skills lists skills and /<skill-name> sends the expanded skill as the message', async () => {
    const dir = join(hermesHome(), 'skills', 'tide-tables');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'SKILL.md'),
      '---\nname: tide-tables\ndescription: Read tide tables for a harbour.\n---\nAlways quote the harbour name.\n',
    );
    server = await startScriptedServer(script().text('High tide at noon.'));
    const h = harness(server.url, 'queue');
    const done = h.repl.run();
    h.stdin.write('/skills\n');
    await h.waitFor('/tide-tables');
    h.stdin.write('/tide-tables for Brest\n');
    await h.waitFor('High tide at noon.');
    h.stdin.end();
    expect(await done).toBe(0);
    await h.repl.session.close();
    const body = JSON.stringify(server.requests[0]?.body);
    expect(body).toContain('Always quote the harbour name.');
    expect(body).toContain('for Brest');
  });

  it('/undo drops the last exchange and /retry sends the last message again', async () => {
    server = await startScriptedServer(
      script().text('Answer one.').text('Answer two.').text('Answer two, again.'),
    );
    const h = harness(server.url, 'queue');
    const done = h.repl.run();
    h.stdin.write('first question\n/undo\nsecond question\n/retry\n');
    await h.waitFor('Answer two, again.');
    h.stdin.end();
    expect(await done).toBe(0);
    await h.repl.session.close();
    expect(h.output()).toContain('Undone: "first question"');
    const userTexts = (i: number) =>
      (
        (
          server?.requests[i]?.body as
            | { messages: { role: string; content: unknown }[] }
            | undefined
        )?.messages ?? []
      )
        .filter((m) => m.role === 'user')
        .map((m) => m.content);
    expect(userTexts(1)).toEqual(['second question']);
    expect(userTexts(2)).toEqual(['second question']);
    // The store agrees, so resuming the session does not bring the undone turns back; the
    // undone rows are archived, not deleted.
    const sessionId = h.repl.session.agent.sessionId as string;
    const store = openSessionStore({ hermesHome: hermesHome() });
    try {
      const active = (await store.getMessages(sessionId)).map((row) => row.message.content);
      expect(active).toEqual(['second question', 'Answer two, again.']);
      const all = await store.getMessages(sessionId, { includeInactive: true });
      expect(all.map((row) => row.message.content)).toContain('first question');
    } finally {
      await store.close();
    }
  });

  it('/yolo lets a flagged command run without asking', async () => {
    server = await startScriptedServer(
      script().toolCall('terminal', { command: 'rm -r scratch' }).text('Gone.'),
    );
    const h = harness(server.url, 'queue');
    const cwd = h.repl.session.setup.cwd;
    mkdirSync(join(cwd, 'scratch'));
    const done = h.repl.run();
    h.stdin.write('/yolo\nremove scratch\n');
    await h.waitFor('Gone.');
    h.stdin.end();
    expect(await done).toBe(0);
    await h.repl.session.close();
    expect(h.output()).toContain('YOLO on');
    expect(h.output()).not.toContain('[o]nce');
    expect(existsSync(join(cwd, 'scratch'))).toBe(false);
  });
});
