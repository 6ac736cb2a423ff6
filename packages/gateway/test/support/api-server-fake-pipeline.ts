/**
 * A stand-in for the gateway's pipeline at the InboundHandler seam: it records every message and
 * drives the message's sink the way the pipeline does (turn_start, text deltas, tool events,
 * turn_end, then `finish`), following a queue of scripted "plays". Slash commands (`/approve`,
 * `/stop`, …) are recorded and answered with a notice, like the pipeline's command step.
 */
import { type AgentEvent, type ExitReason, emptyUsage, type Usage } from '@hermes/protocol';
import type { InboundContext, InboundHandler, InboundMessage } from '../../src/messages.js';

/** One message as the pipeline received it. */
export interface Delivery {
  readonly message: InboundMessage;
  readonly context: InboundContext | undefined;
}

/** What the stand-in does with one message. */
export type Play = (delivery: Delivery, pipeline: FakePipeline) => void | Promise<void>;

/** A tool the scripted turn runs between its two text bursts. */
export interface ScriptedTool {
  readonly name: string;
  readonly arguments: string;
  readonly preview: string;
}

/** How a scripted turn answers. */
export interface ReplyScript {
  /** The session the turn runs in; default the context's, else `sess-<messageId>`. */
  readonly sessionId?: string;
  /** Text streamed before the tool runs. */
  readonly before?: string;
  readonly tool?: ScriptedTool;
  readonly usage?: Partial<Usage>;
  readonly exitReason?: ExitReason;
  /** Stream the answer in pieces of this size (default 4). */
  readonly chunk?: number;
  readonly notices?: readonly string[];
}

const TURN = 'turn-1';

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

/** Records messages and plays scripted turns on their sinks. */
export class FakePipeline {
  readonly received: Delivery[] = [];
  readonly #plays: Play[] = [];
  #fallback: Play = reply('ok');
  readonly #watchers = new Set<() => void>();

  /** The handler to connect the adapter with. */
  readonly handler: InboundHandler = async (message, context) => {
    const delivery = { message, context };
    this.received.push(delivery);
    for (const watcher of [...this.#watchers]) watcher();
    if (message.text.startsWith('/')) {
      // As the pipeline answers a slash command: a finished "turn" with no session.
      context?.sink?.finish({
        sessionId: '',
        text: `handled ${message.text}`,
        exitReason: 'completed',
        failed: false,
        usage: emptyUsage(),
        model: '',
      });
      return;
    }
    const play = this.#plays.shift() ?? this.#fallback;
    await play(delivery, this);
  };

  /** Queues plays for the next messages, in order. */
  queue(...plays: Play[]): this {
    this.#plays.push(...plays);
    return this;
  }

  /** The play for messages with none queued. */
  otherwise(play: Play): this {
    this.#fallback = play;
    return this;
  }

  /** Resolves with the first received message that matches (already received or later). */
  waitFor(match: (delivery: Delivery) => boolean, ms = 10_000): Promise<Delivery> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.received.find(match);
        if (!found) return false;
        this.#watchers.delete(watcher);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const watcher = () => void check();
      const timer = setTimeout(() => {
        this.#watchers.delete(watcher);
        reject(new Error(`no matching message within ${ms} ms`));
      }, ms);
      if (!check()) this.#watchers.add(watcher);
    });
  }
}

function emit(delivery: Delivery, event: AgentEvent): void {
  delivery.context?.sink?.event(event);
}

/** The session a scripted turn runs in. */
export function sessionOf(delivery: Delivery, script: ReplyScript = {}): string {
  return script.sessionId ?? delivery.context?.sessionId ?? `sess-${delivery.message.messageId}`;
}

/** Plays a turn that streams `text` (with an optional tool in the middle) and finishes. */
export function reply(text: string, script: ReplyScript = {}): Play {
  return (delivery) => {
    const sink = delivery.context?.sink;
    const sessionId = sessionOf(delivery, script);
    emit(delivery, {
      type: 'turn_start',
      turnId: TURN,
      sessionId,
      userMessage: delivery.message.text,
    });
    for (const notice of script.notices ?? []) sink?.notice(notice);
    const size = script.chunk ?? 4;
    for (const delta of pieces(script.before ?? '', size)) {
      emit(delivery, { type: 'text_delta', turnId: TURN, delta });
    }
    if (script.tool) playTool(delivery, script.tool);
    for (const delta of pieces(text, size))
      emit(delivery, { type: 'text_delta', turnId: TURN, delta });
    finish(delivery, text, script);
  };
}

/** Emits one tool call's start, progress and end. */
export function playTool(delivery: Delivery, tool: ScriptedTool): void {
  const at = { turnId: TURN, toolCallId: `call-${tool.name}`, name: tool.name };
  emit(delivery, { type: 'tool_call_start', ...at, arguments: tool.arguments });
  emit(delivery, { type: 'tool_call_progress', ...at, message: 'working' });
  emit(delivery, {
    type: 'tool_call_end',
    ...at,
    outcome: 'ok',
    durationMs: 12,
    preview: tool.preview,
  });
}

/** Ends the turn with `finish`. */
export function finish(delivery: Delivery, text: string, script: ReplyScript = {}): void {
  const exitReason = script.exitReason ?? 'completed';
  const usage = { ...emptyUsage(), inputTokens: 10, outputTokens: 5, ...script.usage };
  emit(delivery, {
    type: 'turn_end',
    turnId: TURN,
    sessionId: sessionOf(delivery, script),
    exitReason,
    completed: exitReason === 'completed',
    interrupted: exitReason.startsWith('interrupted'),
    failed: false,
    apiCalls: 1,
    usage,
  });
  delivery.context?.sink?.finish({
    sessionId: sessionOf(delivery, script),
    text,
    exitReason,
    failed: false,
    usage,
    model: 'scripted-model',
  });
}

/** Plays a refusal: `fail` before any event. */
export function refuse(code: string, message: string): Play {
  return (delivery) => delivery.context?.sink?.fail({ code, message });
}

/**
 * Plays a turn that starts, then waits until `until` says it may end (a control message arrived,
 * the client went away), then finishes with `exitReason`.
 */
export function hold(
  until: (delivery: Delivery, pipeline: FakePipeline) => Promise<void>,
  text: string,
  script: ReplyScript = {},
): Play {
  return async (delivery, pipeline) => {
    const sessionId = sessionOf(delivery, script);
    emit(delivery, {
      type: 'turn_start',
      turnId: TURN,
      sessionId,
      userMessage: delivery.message.text,
    });
    if (script.tool) {
      const at = { turnId: TURN, toolCallId: `call-${script.tool.name}`, name: script.tool.name };
      emit(delivery, { type: 'tool_call_start', ...at, arguments: script.tool.arguments });
    }
    await until(delivery, pipeline);
    finish(delivery, text, script);
  };
}

/** Resolves when the message's signal aborts (the client went away). */
export function aborted(delivery: Delivery): Promise<void> {
  const signal = delivery.context?.signal;
  return new Promise((resolve) => {
    if (!signal) return;
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** Resolves when a message with `text` arrives from the same chat and user as `delivery`. */
export function controlFrom(text: string) {
  return async (delivery: Delivery, pipeline: FakePipeline): Promise<void> => {
    await pipeline.waitFor(
      (other) =>
        other.message.text === text &&
        other.message.chatId === delivery.message.chatId &&
        other.message.userId === delivery.message.userId,
    );
  };
}

/** Emits an approval request and its resolution once `/approve…` or `/deny` arrives. */
export function approvalTurn(text: string): Play {
  return async (delivery, pipeline) => {
    const sessionId = sessionOf(delivery);
    emit(delivery, {
      type: 'turn_start',
      turnId: TURN,
      sessionId,
      userMessage: delivery.message.text,
    });
    emit(delivery, {
      type: 'approval_request',
      turnId: TURN,
      requestId: 'req-1',
      command: 'rm -rf build',
      reason: 'recursive delete',
    });
    const answer = await pipeline.waitFor(
      (other) =>
        /^\/(approve|deny)/.test(other.message.text) &&
        other.message.chatId === delivery.message.chatId &&
        other.message.userId === delivery.message.userId,
    );
    const scope = /^\/approve(?: (session|always))?$/.exec(answer.message.text)?.[1];
    const approved = answer.message.text.startsWith('/approve');
    emit(delivery, {
      type: 'approval_resolution',
      turnId: TURN,
      requestId: 'req-1',
      decision: approved ? ((scope as 'session' | 'always' | undefined) ?? 'once') : 'deny',
      decidedBy: 'user',
    });
    finish(delivery, approved ? text : 'Not deleted.');
  };
}
