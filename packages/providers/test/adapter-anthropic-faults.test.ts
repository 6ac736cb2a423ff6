/**
 * How the Anthropic adapter fails, over real HTTP: every testkit fault preset, streamed and not,
 * becomes the expected classification, and no error carries the API key.
 */
import { type FaultInput, faults, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { isAbortError } from '../src/abort.js';
import { AnthropicMessagesProvider } from '../src/adapters/anthropic-provider.js';
import { type FailureReason, ProviderError } from '../src/classified-error.js';
import type { StreamEvent } from '../src/stream-event.js';
import {
  ask,
  closeRigs,
  keyFreeClassification,
  MODEL,
  rejectionOf,
  SECRET_KEY,
  startRig,
} from './support/adapter-anthropic.js';

afterEach(closeRigs);

/** Asserts `error` is a ProviderError free of the key, and returns its classification. */
function classifiedOf(error: unknown) {
  expect(error).toBeInstanceOf(ProviderError);
  const classified = keyFreeClassification(error);
  expect((error as ProviderError).message).not.toContain(SECRET_KEY);
  expect(JSON.stringify((error as ProviderError).details)).not.toContain(SECRET_KEY);
  return classified;
}

type Flags = [retryable: boolean, compress: boolean, rotate: boolean, fallback: boolean];

interface FaultCase {
  readonly fault: FaultInput;
  readonly reason: FailureReason;
  readonly flags: Flags;
  readonly status?: number;
  readonly retryAfterMs?: number;
  /** When the non-streamed call classifies differently (a body the adapter cannot read). */
  readonly plainReason?: FailureReason;
}

const cases: Record<string, FaultCase> = {
  rateLimited: {
    fault: faults.rateLimited(2),
    reason: 'rate_limit',
    flags: [true, false, true, true],
    status: 429,
    retryAfterMs: 2_000,
  },
  unauthorized: {
    fault: faults.unauthorized(),
    reason: 'auth',
    flags: [false, false, true, true],
    status: 401,
  },
  usageLimit: {
    fault: faults.usageLimit(5),
    reason: 'rate_limit',
    flags: [true, false, true, true],
    status: 402,
    retryAfterMs: 300_000,
  },
  insufficientCredits: {
    fault: faults.insufficientCredits(),
    reason: 'billing',
    flags: [false, false, true, true],
    status: 402,
  },
  modelNotFound: {
    fault: faults.modelNotFound(MODEL),
    reason: 'model_not_found',
    flags: [false, false, false, true],
    status: 404,
  },
  payloadTooLarge: {
    fault: faults.payloadTooLarge(),
    reason: 'payload_too_large',
    flags: [true, true, false, false],
    status: 413,
  },
  contextLength: {
    fault: faults.contextLength(200_000),
    reason: 'context_overflow',
    flags: [true, true, false, false],
    status: 400,
  },
  badRequest: {
    fault: faults.badRequest('messages.0.content: field required'),
    reason: 'format_error',
    flags: [false, false, false, false],
    status: 400,
  },
  serverError: {
    fault: faults.serverError(),
    reason: 'server_error',
    flags: [true, false, false, true],
    status: 500,
  },
  unavailable: {
    fault: faults.unavailable(),
    reason: 'overloaded',
    flags: [true, false, false, true],
    status: 503,
  },
  overloaded: {
    fault: faults.overloaded(),
    reason: 'overloaded',
    flags: [true, false, false, true],
    status: 529,
  },
  temporarilyOverloaded: {
    fault: faults.temporarilyOverloaded(),
    reason: 'overloaded',
    flags: [true, false, false, true],
    status: 429,
  },
  htmlErrorPage: {
    fault: faults.htmlErrorPage(502),
    reason: 'server_error',
    flags: [true, false, false, true],
    status: 502,
  },
  // Streamed: a 200 with no events is a stream that ended early; not streamed: an unreadable body.
  nonJson200: {
    fault: faults.nonJson200(),
    reason: 'server_error',
    flags: [true, false, false, true],
    plainReason: 'unknown',
  },
  emptyBody: {
    fault: faults.emptyBody(),
    reason: 'server_error',
    flags: [true, false, false, true],
    plainReason: 'unknown',
  },
  malformedSse: {
    fault: faults.malformedSse('anthropic-messages'),
    reason: 'unknown',
    flags: [true, false, false, true],
  },
};

describe('anthropic-messages: every fault preset is classified', () => {
  for (const stream of [true, false]) {
    it.each(Object.entries(cases))(`%s (stream: ${stream})`, async (_name, expected) => {
      const { provider } = await startRig(script().fault(expected.fault));
      const events: StreamEvent[] = [];
      const error = await rejectionOf(
        provider.chat(ask(stream), { onEvent: (e) => events.push(e) }),
      );
      const classified = classifiedOf(error);
      const reason = stream ? expected.reason : (expected.plainReason ?? expected.reason);
      expect(classified.reason).toBe(reason);
      if (reason === expected.reason) {
        const { retryable, shouldCompress, shouldRotateCredential, shouldFallback } = classified;
        expect([retryable, shouldCompress, shouldRotateCredential, shouldFallback]).toEqual(
          expected.flags,
        );
      }
      expect(classified.status).toBe(expected.status);
      expect(classified.retryAfterMs).toBe(expected.retryAfterMs);
      expect(isAbortError(error)).toBe(false);
      expect(events.some((e) => e.type === 'done')).toBe(false);
    });
  }

  it('masks the API key when the server echoes it back', async () => {
    const { provider } = await startRig(
      script().fault(faults.badRequest(`key ${SECRET_KEY} is not valid for this workspace`)),
    );
    const classified = classifiedOf(await rejectionOf(provider.chat(ask(true))));
    expect(classified.message).toContain('sk-…7890');
  });

  it('classifies a refused connection as a server error', async () => {
    const gone = await startScriptedServer(script());
    const baseUrl = gone.baseUrl('anthropic-messages');
    await gone.close();
    const provider = new AnthropicMessagesProvider({ apiKey: SECRET_KEY, baseUrl });
    const classified = classifiedOf(await rejectionOf(provider.chat(ask(true))));
    expect(classified.reason).toBe('server_error');
  });
});
