// Retries end to end: createProvider's callWithRetry around the real OpenAI Chat adapter, over
// real HTTP to the testkit, with an injected sleep so nothing really waits.
import { faults, type ScriptedServer, script } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { isAbortError } from '../src/abort.js';
import { createProvider } from '../src/create-provider.js';
import type { ProviderRetryConfig } from '../src/provider-config.js';
import { partialTextOf } from '../src/stream/index.js';
import { EventLog } from './support/event-log.js';
import { recordingSleep, streamedHello, useScriptedServers } from './support/integration.js';

const serve = useScriptedServers();

const ASK = streamedHello();

function build(server: ScriptedServer, retry?: ProviderRetryConfig) {
  const { sleep, waits } = recordingSleep();
  const created = createProvider(
    {
      provider: 'local',
      model: 'scripted-model',
      baseUrl: server.baseUrl('openai-chat'),
      apiKey: 'sk-local-0000000000000001',
      ...(retry === undefined ? {} : { retry }),
    },
    {
      env: {},
      sleep,
    },
  );
  return { ...created, waits };
}

/** A first answer whose connection drops after some visible text, then a complete second one. */
function cutOffThenComplete() {
  return script()
    .text('The first half of an answer that will be cut off')
    .fault(faults.disconnect(3))
    .next()
    .text('a complete second answer');
}

describe('retry over HTTP', () => {
  it('retries a 429 and succeeds on the second attempt, honouring retry-after', async () => {
    const server = await serve(
      script().fault(faults.rateLimited(7)).next().text('second time lucky'),
    );
    const { provider, waits } = build(server, { baseMs: 1_000, maxMs: 60_000 });
    const response = await provider.chat(ASK);
    expect(response.message.content).toBe('second time lucky');
    expect(server.requests).toHaveLength(2);
    expect(waits).toHaveLength(1);
    // The backoff is 1–1.5 s, but the service asked for 7 s: the larger wins.
    expect(waits[0]).toBe(7_000);
  });

  it('gives up after maxAttempts and rethrows the classified failure', async () => {
    const server = await serve(script().fault(faults.unavailable()).times(5));
    const { provider, waits } = build(server, { maxAttempts: 2, baseMs: 1 });
    await expect(provider.chat(ASK)).rejects.toMatchObject({ code: 'provider.overloaded' });
    expect(server.requests).toHaveLength(2);
    expect(waits).toHaveLength(1);
  });

  it('does not retry once visible text has streamed', async () => {
    const server = await serve(cutOffThenComplete());
    const { provider, waits } = build(server);
    const shown: string[] = [];
    const error = await provider
      .chat(ASK, { onEvent: (e) => e.type === 'text_delta' && shown.push(e.delta) })
      .catch((e: unknown) => e);
    expect(shown.join('')).not.toBe('');
    expect(partialTextOf(error)).toBe(shown.join(''));
    expect(server.requests).toHaveLength(1);
    expect(server.remaining()).toBe(1);
    expect(waits).toEqual([]);
  });

  it('retries after visible text when the caller opts in', async () => {
    const server = await serve(cutOffThenComplete());
    const { provider } = build(server, { retryAfterVisibleText: true, baseMs: 1 });
    const response = await provider.chat(ASK);
    expect(response.message.content).toBe('a complete second answer');
    expect(server.requests).toHaveLength(2);
  });
});

describe('aborts through the retry layer', () => {
  it('ends a backoff at once when the caller aborts', async () => {
    const server = await serve(script().fault(faults.rateLimited(0)).next().text('too late'));
    // A real sleep of ten minutes or more: only the abort can end it within the test.
    let backoffStarted: (delayMs: number) => void = () => undefined;
    const backoff = new Promise<number>((resolve) => {
      backoffStarted = resolve;
    });
    const { provider } = createProvider(
      {
        provider: 'local',
        model: 'scripted-model',
        baseUrl: server.baseUrl('openai-chat'),
        apiKey: 'sk-local-0000000000000001',
        retry: { baseMs: 600_000, maxMs: 600_000 },
      },
      { env: {}, onRetry: (info) => backoffStarted(info.delayMs) },
    );
    const controller = new AbortController();
    const pending = provider.chat(ASK, { signal: controller.signal }).catch((e: unknown) => e);
    expect(await backoff).toBeGreaterThanOrEqual(600_000);
    controller.abort();
    const error = await pending;
    expect(isAbortError(error)).toBe(true);
    expect(server.requests).toHaveLength(1);
    expect(server.remaining()).toBe(1);
  });

  it('keeps the partial text of a stream the caller aborted', async () => {
    const server = await serve(script().text('Partial answer that stalls').fault(faults.stall(3)));
    const { provider } = build(server);
    const controller = new AbortController();
    const log = new EventLog();
    const pending = provider
      .chat(ASK, { signal: controller.signal, onEvent: log.onEvent })
      .catch((e: unknown) => e);
    // Three frames: the role chunk and two 8-character text chunks; then the server stalls.
    await log.textReaches('Partial answer t');
    controller.abort();
    const error = await pending;
    expect(isAbortError(error)).toBe(true);
    expect(partialTextOf(error)).toBe('Partial answer t');
    expect(server.requests).toHaveLength(1);
  });
});
