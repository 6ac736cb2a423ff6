/**
 * How the Gemini adapter fails, over real HTTP. Two tables: the real error bodies of the Gemini
 * API (`fixtures/gemini-errors.json`, the classifier's holdout-style table for this service) and
 * every testkit fault preset as the scripted server words it for Gemini; each streamed and not,
 * each classified as expected, none carrying the API key.
 */
import { readFileSync } from 'node:fs';
import { type FaultInput, faults, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isAbortError } from '../src/abort.js';
import { GeminiProvider } from '../src/adapters/gemini-provider.js';
import {
  type ClassifiedError,
  type FailureReason,
  FailureReasonSchema,
  ProviderError,
} from '../src/classified-error.js';
import { FAILURE_FLAGS } from '../src/classify-error.js';
import type { StreamEvent } from '../src/stream-event.js';
import {
  ask,
  closeRigs,
  keyFreeClassification,
  rejectionOf,
  SECRET_KEY,
  startRig,
} from './support/gemini-rig.js';

afterEach(closeRigs);

const FixtureSchema = z.object({
  cases: z.array(
    z.object({
      name: z.string(),
      status: z.number().int().min(400).max(599),
      headers: z.record(z.string(), z.string()).default({}),
      body: z.record(z.string(), z.unknown()),
      reason: FailureReasonSchema,
      retryAfterMs: z.number().int().optional(),
    }),
  ),
});

const fixtures = FixtureSchema.parse(
  JSON.parse(readFileSync(new URL('./fixtures/gemini-errors.json', import.meta.url), 'utf8')),
).cases;

/** Asserts `error` is a ProviderError free of the key, and returns its classification. */
function classifiedOf(error: unknown): ClassifiedError {
  expect(error).toBeInstanceOf(ProviderError);
  expect(isAbortError(error)).toBe(false);
  expect(JSON.stringify((error as ProviderError).details)).not.toContain(SECRET_KEY);
  return keyFreeClassification(error);
}

/** The reason's flags, as the classifier's own table states them. */
function flagsOf(classified: ClassifiedError) {
  const { retryable, shouldCompress, shouldRotateCredential, shouldFallback } = classified;
  return { retryable, shouldCompress, shouldRotateCredential, shouldFallback };
}

async function failureOf(fault: FaultInput, stream: boolean) {
  const { provider } = await startRig(script().fault(fault));
  const events: StreamEvent[] = [];
  const error = await rejectionOf(provider.chat(ask(stream), { onEvent: (e) => events.push(e) }));
  expect(events.some((e) => e.type === 'done')).toBe(false);
  return classifiedOf(error);
}

describe('gemini: real error bodies of the Gemini API are classified', () => {
  for (const stream of [true, false]) {
    it.each(fixtures.map((c) => [c.name, c] as const))(
      `%s (stream: ${stream})`,
      async (_name, fixture) => {
        const classified = await failureOf(
          { kind: 'http', status: fixture.status, body: fixture.body, headers: fixture.headers },
          stream,
        );
        expect(classified.reason).toBe(fixture.reason);
        expect(flagsOf(classified)).toEqual(FAILURE_FLAGS[fixture.reason]);
        expect(classified.status).toBe(fixture.status);
        expect(classified.retryAfterMs).toBe(fixture.retryAfterMs);
      },
    );
  }

  it('covers every status the brief names, and each error class', () => {
    expect(new Set(fixtures.map((c) => c.status))).toEqual(
      new Set([400, 401, 403, 404, 429, 500, 503, 504]),
    );
    const reasons: FailureReason[] = [
      'auth',
      'auth_permanent',
      'context_overflow',
      'format_error',
      'model_not_found',
      'rate_limit',
      'overloaded',
      'server_error',
    ];
    expect(new Set(fixtures.map((c) => c.reason))).toEqual(new Set(reasons));
  });
});

interface PresetCase {
  readonly fault: FaultInput;
  readonly reason: FailureReason;
  readonly status?: number;
  readonly retryAfterMs?: number;
  /** When the non-streamed call classifies differently (a body the adapter cannot read). */
  readonly plainReason?: FailureReason;
}

const presets: Record<string, PresetCase> = {
  rateLimited: {
    fault: faults.rateLimited(2),
    reason: 'rate_limit',
    status: 429,
    retryAfterMs: 2_000,
  },
  unauthorized: { fault: faults.unauthorized(), reason: 'auth', status: 401 },
  modelNotFound: { fault: faults.modelNotFound(), reason: 'model_not_found', status: 404 },
  contextLength: { fault: faults.contextLength(), reason: 'context_overflow', status: 400 },
  badRequest: { fault: faults.badRequest(), reason: 'format_error', status: 400 },
  serverError: { fault: faults.serverError(), reason: 'server_error', status: 500 },
  unavailable: { fault: faults.unavailable(), reason: 'overloaded', status: 503 },
  temporarilyOverloaded: {
    fault: faults.temporarilyOverloaded(),
    reason: 'overloaded',
    status: 429,
  },
  htmlErrorPage: { fault: faults.htmlErrorPage(502), reason: 'server_error', status: 502 },
  // A stream with no frames ended early (transient); a body that is not JSON cannot be read.
  nonJson200: { fault: faults.nonJson200(), reason: 'server_error', plainReason: 'unknown' },
  emptyBody: { fault: faults.emptyBody(), reason: 'server_error', plainReason: 'unknown' },
  malformedSse: { fault: faults.malformedSse('gemini'), reason: 'unknown' },
};

describe('gemini: every fault preset is classified', () => {
  for (const stream of [true, false]) {
    it.each(Object.entries(presets))(`%s (stream: ${stream})`, async (_name, expected) => {
      const classified = await failureOf(expected.fault, stream);
      const reason = stream ? expected.reason : (expected.plainReason ?? expected.reason);
      expect(classified.reason).toBe(reason);
      expect(flagsOf(classified)).toEqual(FAILURE_FLAGS[reason]);
      expect(classified.status).toBe(expected.status);
      expect(classified.retryAfterMs).toBe(expected.retryAfterMs);
    });
  }

  it('an error object sent inside the stream reads like its HTTP status', async () => {
    const frame = {
      error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' },
    };
    const text = { candidates: [{ content: { role: 'model', parts: [{ text: 'Par' }] } }] };
    const body = [text, frame].map((f) => `data: ${JSON.stringify(f)}\r\n\r\n`).join('');
    const { provider } = await startRig(
      script().fault({ kind: 'raw', contentType: 'text/event-stream', body }),
    );
    const error = await rejectionOf(provider.chat(ask(true)));
    expect(classifiedOf(error)).toMatchObject({ reason: 'overloaded', status: 503 });
  });

  it('masks the API key when the server echoes it back', async () => {
    const { provider } = await startRig(
      script().fault(
        faults.badRequest(`API key ${SECRET_KEY} not valid. Please pass a valid API key.`),
      ),
    );
    const classified = classifiedOf(await rejectionOf(provider.chat(ask(true))));
    expect(classified.message).not.toContain(SECRET_KEY);
  });

  it('classifies a refused connection as a server error', async () => {
    const gone = await startScriptedServer(script());
    const baseUrl = gone.baseUrl('gemini');
    await gone.close();
    const provider = new GeminiProvider({ apiKey: SECRET_KEY, baseUrl });
    expect(classifiedOf(await rejectionOf(provider.chat(ask(true)))).reason).toBe('server_error');
  });
});
