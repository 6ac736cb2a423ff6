/**
 * Abort helpers: prompt rejection over a never-ending stream, and telling abort from stall. The
 * sources here never end on their own, so a settled call proves the abort was honoured; the
 * time limits are only backstops for a loaded machine.
 */
import { settleWithin } from '@hermes/protocol/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isProviderError } from '../src/classified-error.js';
import {
  type ChatResponse,
  ChatResponseSchema,
  isAbortError,
  type StreamEvent,
} from '../src/index.js';
import {
  AbortedWithPartialError,
  abortable,
  interruptionError,
  partialTextOf,
  raceAbort,
  StaleStreamError,
  StaleStreamWatchdog,
  StreamAccumulator,
  StreamTimeoutError,
} from '../src/stream/index.js';
import { PATIENT } from './support/patience.js';

/** How long a settled-after-abort check waits at most: a backstop, never the expected time. */
const BACKSTOP_MS = 15_000;

/** A source that yields `items`, then never answers again, and records whether it was closed. */
function stallingSource<T>(items: readonly T[]) {
  const state = { returned: false, nextCalls: 0 };
  const source: AsyncIterable<T> = {
    [Symbol.asyncIterator]: () => ({
      next: () => {
        const item = items[state.nextCalls++];
        if (item !== undefined) return Promise.resolve({ done: false, value: item });
        return new Promise<IteratorResult<T>>(() => undefined);
      },
      return: () => {
        state.returned = true;
        return Promise.resolve({ done: true, value: undefined });
      },
    }),
  };
  return { source, state };
}

async function drain<T>(iterable: AsyncIterable<T>, seen: T[]): Promise<void> {
  for await (const item of iterable) seen.push(item);
}

describe('abortable', () => {
  it('rejects with the abort reason while next() is pending forever, and closes the source', async () => {
    const { source, state } = stallingSource(['a', 'b']);
    const controller = new AbortController();
    const seen: string[] = [];
    const run = drain(abortable(source, controller.signal), seen);
    await vi.waitFor(() => expect(seen).toEqual(['a', 'b']), PATIENT);
    const reason = new Error('stop now');
    controller.abort(reason);
    const settled = await settleWithin(run, BACKSTOP_MS, 'iteration after abort');
    expect(settled).toEqual({ status: 'rejected', reason });
    expect(state.returned).toBe(true);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const { source } = stallingSource(['never seen']);
    const controller = new AbortController();
    controller.abort();
    const seen: string[] = [];
    const settled = await settleWithin(
      drain(abortable(source, controller.signal), seen),
      BACKSTOP_MS,
      'x',
    );
    expect(settled.status).toBe('rejected');
    expect(isAbortError(settled.status === 'rejected' ? settled.reason : undefined)).toBe(true);
    expect(seen).toEqual([]);
  });

  it('passes items, the end and errors through, and forwards break to the source', async () => {
    const controller = new AbortController();
    async function* finite() {
      yield 1;
      yield 2;
    }
    const seen: number[] = [];
    await drain(abortable(finite(), controller.signal), seen);
    expect(seen).toEqual([1, 2]);

    async function* failing(): AsyncGenerator<number> {
      yield 1;
      throw new Error('socket reset');
    }
    await expect(drain(abortable(failing(), controller.signal), [])).rejects.toThrow(
      'socket reset',
    );

    const { source, state } = stallingSource([1, 2, 3]);
    for await (const item of abortable(source, controller.signal)) if (item === 2) break;
    expect(state.returned).toBe(true);

    const plain: number[] = [];
    await drain(abortable(finite(), undefined), plain);
    expect(plain).toEqual([1, 2]);
  });
});

describe('raceAbort', () => {
  it('settles like the promise when no abort happens', async () => {
    const controller = new AbortController();
    await expect(raceAbort(Promise.resolve(7), controller.signal)).resolves.toBe(7);
    await expect(raceAbort(Promise.reject(new Error('e')), controller.signal)).rejects.toThrow('e');
    await expect(raceAbort(Promise.resolve(1), undefined)).resolves.toBe(1);
  });

  it('rejects on abort, and a later rejection of the promise stays handled', async () => {
    const controller = new AbortController();
    let rejectLater: (error: Error) => void = () => undefined;
    const slow = new Promise<number>((_, reject) => {
      rejectLater = reject;
    });
    const raced = raceAbort(slow, controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(raced).rejects.toThrow('cancelled');
    rejectLater(new Error('APIUserAbortError'));
    const already = raceAbort(Promise.reject(new Error('late')), controller.signal);
    await expect(already).rejects.toThrow('cancelled');
  });
});

describe('interruptionError', () => {
  it('a caller abort becomes an abort error that keeps the partial text', () => {
    const caller = new AbortController();
    caller.abort();
    const error = interruptionError(caller.signal.reason, {
      callerSignal: caller.signal,
      partialText: 'Half',
    });
    expect(error).toBeInstanceOf(AbortedWithPartialError);
    expect(isAbortError(error)).toBe(true);
    expect(error?.code).toBe('provider.aborted');
    expect(partialTextOf(error)).toBe('Half');
    expect(error?.details).toEqual({ partialText: 'Half' });
  });

  it('a stale stream becomes a retryable timeout ProviderError with the partial text', () => {
    const stale = new StaleStreamError(5_000, 5_003);
    const error = interruptionError(stale, { partialText: 'So far' });
    expect(error).toBeInstanceOf(StreamTimeoutError);
    expect(isProviderError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'provider.timeout',
      retryable: true,
      cause: stale,
      classified: { reason: 'timeout', retryable: true, shouldCompress: false },
    });
    expect(isAbortError(error)).toBe(false);
    expect(partialTextOf(error)).toBe('So far');
  });

  it('uses the watchdog when the SDK threw its own abort error, unless the caller aborted', () => {
    const sdkAbort = Object.assign(new Error('Request was aborted.'), { name: 'AbortError' });
    const watchdog = new StaleStreamWatchdog({ timeoutMs: 1, clock: firedClock() });
    expect(watchdog.stale).toBe(true);
    expect(interruptionError(sdkAbort, { watchdog, partialText: '' })).toBeInstanceOf(
      StreamTimeoutError,
    );
    const caller = new AbortController();
    caller.abort();
    expect(
      interruptionError(sdkAbort, { watchdog, callerSignal: caller.signal, partialText: '' }),
    ).toBeInstanceOf(AbortedWithPartialError);
    expect(interruptionError(sdkAbort, { partialText: 'p' })).toBeInstanceOf(
      AbortedWithPartialError,
    );
  });

  it('leaves other failures to the classifier', () => {
    const watchdog = new StaleStreamWatchdog({ timeoutMs: 60_000 });
    expect(interruptionError(new Error('500'), { watchdog, partialText: '' })).toBeUndefined();
    watchdog.stop();
    expect(partialTextOf(new Error('x'))).toBeUndefined();
    expect(partialTextOf('text')).toBeUndefined();
  });
});

/** A clock whose first timer fires at once, 1 ms late: the watchdog goes stale on construction. */
function firedClock() {
  let now = 0;
  return {
    now: () => now,
    setTimeout: (callback: () => void, ms: number) => {
      now += ms;
      callback();
      return 0;
    },
    clearTimeout: () => undefined,
  };
}

/** What an adapter's `chat` does with these pieces, over a scripted chunk source. */
async function miniChat(
  chunks: AsyncIterable<string>,
  options: { signal?: AbortSignal; timeoutMs: number; onEvent: (e: StreamEvent) => void },
): Promise<ChatResponse> {
  const watchdog = new StaleStreamWatchdog({
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  });
  const acc = new StreamAccumulator({ onEvent: options.onEvent });
  try {
    for await (const chunk of abortable(chunks, watchdog.signal)) {
      watchdog.touch();
      acc.textDelta(chunk);
    }
    return acc.build({ model: 'm', provider: 'mini' });
  } catch (error) {
    acc.abandon();
    throw (
      interruptionError(error, {
        callerSignal: options.signal,
        watchdog,
        partialText: acc.partialText(),
      }) ?? error
    );
  } finally {
    watchdog.stop();
  }
}

describe('a chat built from the pieces', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a stall after some text rejects with a timeout carrying the partial text', async () => {
    vi.useFakeTimers();
    const { source, state } = stallingSource(['Hello, ', 'wor']);
    const events: StreamEvent[] = [];
    const call = miniChat(source, { timeoutMs: 2_000, onEvent: (e) => events.push(e) });
    const outcome = call.then(
      () => 'resolved',
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(1_999);
    expect(state.returned).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(StreamTimeoutError);
    expect(partialTextOf(error)).toBe('Hello, wor');
    expect(state.returned).toBe(true);
    expect(events.some((e) => e.type === 'done')).toBe(false);
  });

  it('a caller abort rejects promptly with the partial text; a clean stream resolves', async () => {
    const { source } = stallingSource(['Partial ', 'answer']);
    const caller = new AbortController();
    const events: StreamEvent[] = [];
    const call = miniChat(source, {
      signal: caller.signal,
      timeoutMs: 60_000,
      onEvent: (e) => events.push(e),
    });
    await vi.waitFor(
      () => expect(events.filter((e) => e.type === 'text_delta')).toHaveLength(2),
      PATIENT,
    );
    caller.abort();
    const settled = await settleWithin(call, BACKSTOP_MS, 'chat after abort');
    expect(settled.status).toBe('rejected');
    const reason = settled.status === 'rejected' ? settled.reason : undefined;
    expect(isAbortError(reason)).toBe(true);
    expect(partialTextOf(reason)).toBe('Partial answer');

    async function* clean() {
      yield 'All ';
      yield 'good.';
    }
    const response = await miniChat(clean(), { timeoutMs: 60_000, onEvent: () => undefined });
    expect(ChatResponseSchema.parse(response).message.content).toBe('All good.');
  });
});
