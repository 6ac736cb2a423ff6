/**
 * `hermes chat -q "…"`: one turn, headless. The answer goes to stdout, progress (tool lines,
 * usage) to stderr, and the exit code is 0 only when the turn completed. Approvals are ruled by
 * the `single_query` policy (deny unless configured otherwise). Ctrl-C interrupts the turn and
 * exits 130.
 */

import type { TextSink } from '@hermes/config';
import type { TurnResult } from '@hermes/loop';
import type { AgentPluginParts, HermesConfig } from '@hermes/runtime';
import type { SessionStore } from '@hermes/state';
import type { Logger } from '../logging/logger.js';
import { traceStartup } from '../startup-trace.js';
import { ChatMcp } from './chat-mcp.js';
import { ChatSession } from './chat-session.js';
import { usageLine } from './format.js';
import { Renderer } from './renderer.js';
import { createStyle } from './style.js';
import { errorLine, turnFailureLine } from './turn-outcome.js';

/** What a single query needs. */
export interface SingleQueryOptions {
  readonly config: HermesConfig;
  readonly query: string;
  readonly json: boolean;
  readonly quiet: boolean;
  readonly sessionId?: string;
  readonly cwd: string;
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly log?: Logger;
  /** What the loaded plugins give the agent. */
  readonly plugins?: AgentPluginParts;
  /** The session store `storage:` selects (PostgreSQL); default SQLite per agent. Not closed. */
  readonly store?: SessionStore;
}

/** Runs the query; resolves to the exit code. */
export async function runSingleQuery(options: SingleQueryOptions): Promise<number> {
  const mcp = await ChatMcp.start(options.config, {
    stderr: options.stderr,
    ...(options.log ? { log: options.log } : {}),
  });
  traceStartup('mcp ready');
  let session: ChatSession;
  try {
    session = ChatSession.open(
      {
        config: options.config,
        cwd: options.cwd,
        surface: 'single_query',
        // The process exits once the answer is out: a title request would be cut off after it was paid for.
        learning: { titles: false },
        ...(options.env ? { env: options.env } : {}),
        ...(options.log ? { log: options.log } : {}),
        ...(options.plugins ? { plugins: options.plugins } : {}),
        ...(options.store ? { store: options.store } : {}),
        mcp,
      },
      options.sessionId,
    );
  } catch (error) {
    await mcp.close();
    options.stderr.write(`hermes: ${errorLine(error)}\n`);
    return 1;
  }
  traceStartup('agent built');
  const renderer = new Renderer({
    out: options.stderr,
    style: createStyle(false),
    streamText: false,
    spinner: false,
  });
  const detach = options.quiet ? () => {} : renderer.attach(session.agent);
  let lastErrorCode: string | undefined;
  const offErrors = session.agent.on('error', (event) => {
    lastErrorCode = event.code;
  });
  const releaseSigint = interruptOnSigint(session);
  try {
    const result = await session.agent.runConversation(options.query);
    renderer.settle();
    return report(result, options, lastErrorCode);
  } catch (error) {
    options.stderr.write(`hermes: ${errorLine(error)}\n`);
    return 1;
  } finally {
    releaseSigint();
    detach();
    offErrors();
    await session.close();
    await mcp.close();
  }
}

/**
 * The first Ctrl-C interrupts the turn; the handler then steps aside, so a second one terminates
 * the process the default way even if the turn is slow to wind down. Returns the cleanup.
 */
function interruptOnSigint(session: ChatSession): () => void {
  const forceExit = (): void => {
    process.kill(process.pid, 'SIGINT');
  };
  const onSigint = (): void => {
    process.off('SIGINT', onSigint);
    session.agent.interrupt();
    process.once('SIGINT', forceExit);
  };
  process.on('SIGINT', onSigint);
  return () => {
    process.off('SIGINT', onSigint);
    process.off('SIGINT', forceExit);
  };
}

/** Prints the answer (or the JSON result) and the outcome; returns the exit code. */
function report(result: TurnResult, options: SingleQueryOptions, errorCode?: string): number {
  const { stdout, stderr } = options;
  if (options.json) stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else if (result.finalResponse) stdout.write(`${result.finalResponse.replace(/\n*$/, '')}\n`);
  if (!options.quiet) {
    const usage = usageLine(result.usage, result.costUsd, result.apiCalls);
    stderr.write(`↳ ${usage} · session ${result.sessionId}\n`);
  }
  if (result.interrupted) {
    stderr.write('hermes: interrupted\n');
    return 130;
  }
  if (result.failed || !result.completed) {
    const baseUrl = options.config.provider?.baseUrl;
    const hints = { ...(errorCode ? { code: errorCode } : {}), ...(baseUrl ? { baseUrl } : {}) };
    stderr.write(`hermes: ${turnFailureLine(result, hints)}\n`);
    return 1;
  }
  return 0;
}
