/**
 * `hermes demo`: a full tool loop with no key. A testkit server in this process plays the canned
 * model replies; the real agent loop, tools (write_file, read_file, terminal) and SQLite session
 * store do the rest, in a temporary working folder and — unless `--home` says otherwise — a
 * temporary HERMES_HOME, so the user's own data is never touched.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TextSink } from '@hermes/config';
import { GATEWAY_DEFAULTS } from '@hermes/gateway';
import type { HermesConfig } from '@hermes/runtime';
import { startScriptedServer } from '@hermes/testkit';
import { ChatSession } from '../chat/chat-session.js';
import { usageLine } from '../chat/format.js';
import { Renderer } from '../chat/renderer.js';
import { colorWanted, createStyle, isTerminal, type Style } from '../chat/style.js';
import { errorLine, turnFailureLine } from '../chat/turn-outcome.js';
import { DEMO_MESSAGES, demoScript } from './demo-script.js';

/** Where the demo writes and how it paces itself. */
export interface DemoOptions {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Use this data home instead of a temporary one (it is kept). */
  readonly home?: string;
  /** Keep the temporary folders and print where they are. */
  readonly keep: boolean;
}

/** Plays the demo; resolves to 0 when every scripted turn completed. */
export async function runDemo(options: DemoOptions): Promise<number> {
  const style = createStyle(colorWanted(options.stdout, options.env));
  const paced = isTerminal(options.stdout);
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'hermes-demo-home-'));
  const work = mkdtempSync(join(tmpdir(), 'hermes-demo-work-'));
  const server = await startScriptedServer(demoScript(paced ? 25 : 0));
  let session: ChatSession | undefined;
  try {
    intro(options.stdout, style, home, work);
    session = ChatSession.open({
      config: demoConfig(home, server.baseUrl('openai-chat')),
      cwd: work,
      surface: 'single_query',
      env: options.env,
    });
    const ok = await playTurns(session, options.stdout, style, paced);
    await session.learning.idle();
    const sessionId = session.agent.sessionId;
    const title = sessionId ? (await session.store.getSession(sessionId))?.title : undefined;
    outro(
      options.stdout,
      style,
      { sessionId, title },
      home,
      options.keep || options.home !== undefined,
    );
    return ok ? 0 : 1;
  } catch (error) {
    options.stderr.write(`hermes demo: ${errorLine(error)}\n`);
    return 1;
  } finally {
    await session?.close();
    await server.close();
    if (!options.keep) {
      rmSync(work, { recursive: true, force: true });
      if (options.home === undefined) rmSync(home, { recursive: true, force: true });
    }
  }
}

async function playTurns(
  session: ChatSession,
  out: TextSink,
  style: Style,
  paced: boolean,
): Promise<boolean> {
  const renderer = new Renderer({ out, style, streamText: true, spinner: paced });
  const detach = renderer.attach(session.agent);
  try {
    for (const message of DEMO_MESSAGES) {
      out.write(`\n${style.bold('you ❯')} ${message}\n`);
      const result = await session.agent.runConversation(message);
      renderer.settle();
      renderer.line(style.dim(`  ↳ ${usageLine(result.usage, result.costUsd, result.apiCalls)}`));
      if (!result.completed || result.failed) {
        renderer.line(style.red(`✗ ${turnFailureLine(result)}`));
        return false;
      }
    }
    return true;
  } finally {
    detach();
  }
}

function demoConfig(home: string, baseUrl: string): HermesConfig {
  return {
    hermesHome: home,
    provider: { provider: 'openai', model: 'scripted-demo', baseUrl, apiKey: 'demo-no-key-needed' },
    maxTurns: 10,
    yolo: false,
    skillDirs: [],
    warnings: [],
    gateway: GATEWAY_DEFAULTS,
    platforms: [],
  };
}

function intro(out: TextSink, style: Style, home: string, work: string): void {
  out.write(
    [
      style.bold('▶ hermes demo — a SCRIPTED conversation'),
      style.yellow(
        '  The model replies are canned, played by a local test server; no API key is used.',
      ),
      '  The agent loop, the tools, the files and the session store below are real.',
      style.dim(`  working folder: ${work}`),
      style.dim(`  data home:      ${home}`),
      '',
    ].join('\n'),
  );
}

function outro(
  out: TextSink,
  style: Style,
  saved: { sessionId: string | undefined; title: string | null | undefined },
  home: string,
  kept: boolean,
): void {
  const named = saved.title ? ` "${saved.title}"` : '';
  out.write(
    [
      '',
      style.bold('■ end of the scripted demo.'),
      `  The conversation was saved as session ${saved.sessionId ?? '?'}${named}${kept ? ` in ${join(home, 'state.db')}` : ' (in a temporary home, now removed)'}.`,
      '',
      '  For real use, with an API key or a local OpenAI-compatible server:',
      '    hermes setup                                   # provider, model, key, connectivity test',
      '    hermes chat                                    # talk with the agent',
      '    hermes chat --base-url http://localhost:8080/v1 --model <name>   # llama.cpp, vLLM, Ollama',
      '',
    ].join('\n'),
  );
}
