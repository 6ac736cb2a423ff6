/**
 * Wires the interactive chat: line input (terminal or pipe), the renderer, the terminal approval
 * and clarify prompts, the agent, Ctrl-C, and the REPL itself; prints the banner.
 */

import { join } from 'node:path';
import type { TextSink } from '@hermes/config';
import type { AgentPluginParts, HermesConfig } from '@hermes/runtime';
import type { SessionStore } from '@hermes/state';
import type { Logger } from '../logging/logger.js';
import type { Asker } from './asker.js';
import { ChatMcp } from './chat-mcp.js';
import { ChatSession } from './chat-session.js';
import { terminalClarify } from './clarify-prompt.js';
import { NO_ENTRY } from './entry-queue.js';
import { LineInput } from './line-input.js';
import { Renderer } from './renderer.js';
import { Repl } from './repl.js';
import { modelCompleter } from './slash-model.js';
import { colorWanted, createStyle, isTerminal, type Style } from './style.js';
import { TerminalApprovalHandler } from './terminal-approval.js';
import { errorLine } from './turn-outcome.js';

/** What the interactive chat needs. */
export interface StartReplOptions {
  readonly config: HermesConfig;
  readonly cwd: string;
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly sessionId?: string;
  /** A line printed under the banner (the demo says it is scripted). */
  readonly notice?: string;
  readonly log?: Logger;
  /** What the loaded plugins give the agent. */
  readonly plugins?: AgentPluginParts;
  /** The session store `storage:` selects (PostgreSQL); default SQLite per agent. Not closed. */
  readonly store?: SessionStore;
}

/** Runs the REPL until the user leaves; resolves to the exit code. */
export async function startRepl(options: StartReplOptions): Promise<number> {
  const terminal = isTerminal(options.stdin) && isTerminal(options.stdout);
  const style = createStyle(colorWanted(options.stdout, options.env));
  const renderer = new Renderer({
    out: options.stdout,
    style,
    streamText: true,
    spinner: terminal,
  });
  let repl: Repl | undefined;
  const onInterrupt = (): void => repl?.interrupt();
  const input = new LineInput({
    input: options.stdin,
    ...(terminal ? { terminal: options.stdout as unknown as NodeJS.WritableStream } : {}),
    historyFile: join(options.config.hermesHome, 'cli_history'),
    onInterrupt,
    completer: modelCompleter(() => repl?.session),
  });
  const asker = queueAsker(input, renderer, options.stdout, terminal);
  // Always a ChatMcp, so /reload-mcp can start servers added to config.yaml during the chat.
  const mcp = await ChatMcp.start(options.config, {
    stderr: options.stderr,
    ...(options.log ? { log: options.log } : {}),
  });
  let session: ChatSession;
  try {
    session = ChatSession.open(
      {
        config: options.config,
        cwd: options.cwd,
        surface: 'interactive',
        approvalHandler: new TerminalApprovalHandler(asker, style),
        clarify: terminalClarify(asker, style),
        env: options.env,
        ...(options.log ? { log: options.log } : {}),
        ...(options.plugins ? { plugins: options.plugins } : {}),
        ...(options.store ? { store: options.store } : {}),
        mcp,
        onReview: (line) => renderer.line(style.dim(`🧠 ${line}`)),
      },
      options.sessionId,
    );
  } catch (error) {
    input.close();
    await mcp.close();
    options.stderr.write(`hermes: ${errorLine(error)}\n`);
    return 1;
  }
  repl = new Repl({
    session,
    input,
    renderer,
    out: options.stdout,
    style,
    typeAhead: terminal ? 'redirect' : 'queue',
    terminal,
  });
  process.on('SIGINT', onInterrupt);
  try {
    banner(options, session, style);
    return await repl.run();
  } finally {
    process.off('SIGINT', onInterrupt);
    input.close();
    await session.close();
    await mcp.close();
  }
}

function banner(options: StartReplOptions, session: ChatSession, style: Style): void {
  const provider = options.config.provider;
  const lines = [
    `${style.bold('Hermes')} · ${session.agent.model}${provider?.baseUrl ? ` @ ${provider.baseUrl}` : ''}`,
    ...(options.sessionId ? [`Continuing session ${options.sessionId}.`] : []),
    ...(options.notice ? [style.yellow(options.notice)] : []),
    style.dim('Type /help for commands, Ctrl-C to interrupt, /quit to leave.'),
  ];
  options.stdout.write(`${lines.join('\n')}\n`);
}

/** Prompts read the next entry ahead of everything else; on a pipe the question gets its own line. */
function queueAsker(input: LineInput, renderer: Renderer, out: TextSink, terminal: boolean): Asker {
  return {
    async ask(details, question, signal) {
      renderer.settle();
      if (details) renderer.line(details);
      if (terminal) input.prompt(question);
      else out.write(`${question}\n`);
      const entry = await input.queue.next(signal, true);
      return entry === NO_ENTRY ? undefined : entry;
    },
  };
}
