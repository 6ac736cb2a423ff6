/**
 * Interrupted Bedrock calls over real HTTP: an abort mid-stream keeps the partial text, stalls
 * time out, dropped connections are classified, and each keeps the text streamed so far. The
 * watchdog's clock is driven by hand (`useWatchdogTime`) and every abort happens on a server that
 * would otherwise never answer, so no outcome depends on the machine's speed.
 */
import { faults, script } from '@hermes/testkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isAbortError } from '../src/abort.js';
import {
  AbortedWithPartialError,
  partialTextOf,
  StreamTimeoutError,
} from '../src/stream/interruption.js';
import {
  askBedrock,
  closeBedrockRigs,
  converseRequests,
  rejectionOf,
  secretFreeClassification,
  startBedrockRig,
} from './support/bedrock-rig.js';
import { EventLog } from './support/event-log.js';
import { PATIENT } from './support/patience.js';
import { useWatchdogTime } from './support/watchdog-time.js';

afterEach(closeBedrockRigs);

const watchdogTime = useWatchdogTime();

describe('bedrock-converse: interrupted streams keep the partial text', () => {
  // Frames: messageStart, then 6-character text deltas ('Hello ', 'there,', …).
  const partialTurn = () =>
    script().text('Hello there, general Kenobi.').chunking({ textChunkSize: 6 });

  it('an abort after some text rejects with the text streamed so far', async () => {
    // The server stalls after 'Hello there,' and never ends the stream: only the abort can.
    const { provider } = await startBedrockRig(partialTurn().fault(faults.stall(3)));
    const controller = new AbortController();
    const log = new EventLog();
    const outcome = rejectionOf(
      provider.chat(askBedrock(true), { signal: controller.signal, onEvent: log.onEvent }),
    );
    await log.textReaches('Hello there,');
    controller.abort();
    const error = await outcome;
    expect(error).toBeInstanceOf(AbortedWithPartialError);
    expect(isAbortError(error)).toBe(true);
    expect(partialTextOf(error)).toBe('Hello there,');
    expect(log.events.some((e) => e.type === 'done')).toBe(false);
  });

  it('a stream that stalls after some text times out with that text', async () => {
    const { provider } = await startBedrockRig(partialTurn().fault(faults.stall(3)), {
      staleTimeoutMs: 300,
    });
    watchdogTime.freeze();
    const log = new EventLog();
    const outcome = rejectionOf(provider.chat(askBedrock(true), { onEvent: log.onEvent }));
    await log.textReaches('Hello there,');
    watchdogTime.elapse(300);
    const error = await outcome;
    expect(error).toBeInstanceOf(StreamTimeoutError);
    expect(secretFreeClassification(error)).toMatchObject({ reason: 'timeout', retryable: true });
    expect(partialTextOf(error)).toBe('Hello there,');
  });

  it('a connection dropped mid-stream is a classified, retryable error keeping the text', async () => {
    const { provider } = await startBedrockRig(partialTurn().fault(faults.disconnect(3)));
    const log = new EventLog();
    const error = await rejectionOf(provider.chat(askBedrock(true), { onEvent: log.onEvent }));
    expect(secretFreeClassification(error)).toMatchObject({
      reason: 'server_error',
      retryable: true,
    });
    expect(partialTextOf(error)).toBe('Hello there,');
    expect(log.events.some((e) => e.type === 'done')).toBe(false);
  });

  it('an abort while waiting for a non-streamed answer rejects; an aborted signal sends nothing', async () => {
    // The answer would come only after ten minutes: a rejection in this test is the abort's.
    const { provider, server } = await startBedrockRig(script().text('late').delay(600_000));
    const controller = new AbortController();
    const outcome = rejectionOf(provider.chat(askBedrock(false), { signal: controller.signal }));
    await vi.waitFor(() => expect(converseRequests(server)).toHaveLength(1), PATIENT);
    controller.abort();
    const error = await outcome;
    expect(isAbortError(error)).toBe(true);
    expect(partialTextOf(error)).toBe('');

    const already = new AbortController();
    already.abort();
    const refused = await rejectionOf(provider.chat(askBedrock(true), { signal: already.signal }));
    expect(isAbortError(refused)).toBe(true);
    expect(converseRequests(server)).toHaveLength(1);
  });

  it('a stalled non-streamed call times out', async () => {
    const { provider } = await startBedrockRig(script().fault(faults.stall()), {
      requestTimeoutMs: 300,
    });
    const error = await rejectionOf(provider.chat(askBedrock(false)));
    expect(secretFreeClassification(error).reason).toBe('timeout');
  });
});
