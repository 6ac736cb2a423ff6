/**
 * Bedrock's errors, classified. A holdout-style table of real Bedrock error responses
 * (`fixtures/bedrock-errors.json`): each is sent over real HTTP by the scripted server, raised by
 * the official AWS SDK as its typed exception, and must reach the verdict in the table; the
 * exceptions Bedrock raises inside a stream (no HTTP status) are classified from the SDK's own
 * exception classes and from an exception member the reader meets.
 */
import { readFileSync } from 'node:fs';
import {
  BedrockRuntimeServiceException,
  ThrottlingException,
  ValidationException,
} from '@aws-sdk/client-bedrock-runtime';
import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bedrockCallFailure } from '../src/adapters/bedrock-errors.js';
import { BedrockStreamReader } from '../src/adapters/bedrock-stream-reader.js';
import { FailureReasonSchema } from '../src/classified-error.js';
import { FAILURE_FLAGS } from '../src/classify-error.js';
import { StreamAccumulator } from '../src/stream/response-builder.js';
import {
  askBedrock,
  closeBedrockRigs,
  MODEL,
  rejectionOf,
  SECRET_ACCESS_KEY,
  secretFreeClassification,
  startBedrockRig,
} from './support/bedrock-rig.js';

afterEach(closeBedrockRigs);

const RowSchema = z.object({
  label: z.string(),
  type: z.string(),
  message: z.string(),
  reason: FailureReasonSchema,
});
const FixturesSchema = z.object({
  http: z.array(
    RowSchema.extend({
      status: z.number().int(),
      headers: z.record(z.string(), z.string()).optional(),
      retryAfterMs: z.number().optional(),
    }),
  ),
  stream: z.array(RowSchema),
});

const fixtures = FixturesSchema.parse(
  JSON.parse(readFileSync(new URL('./fixtures/bedrock-errors.json', import.meta.url), 'utf8')),
);

const context = { provider: 'bedrock', model: MODEL, approxPromptTokens: 2_000 };

/** The classification of a failure the way the adapter makes it. */
function classifyFailure(error: unknown) {
  const failure = bedrockCallFailure(error, {
    classify: context,
    secrets: [SECRET_ACCESS_KEY],
    callerSignal: undefined,
    watchdog: undefined,
    partialText: '',
  });
  return secretFreeClassification(failure);
}

describe('bedrock-converse: HTTP errors, raised by the SDK, classified', () => {
  it.each(fixtures.http.map((row) => [row.label, row] as const))('%s', async (_label, row) => {
    const { provider } = await startBedrockRig(
      script().fault({
        kind: 'http',
        status: row.status,
        message: row.message,
        headers: row.headers ?? {},
        byProtocol: { 'bedrock-converse': { errorType: row.type } },
      }),
    );
    const error = await rejectionOf(provider.chat(askBedrock(true)));
    const classified = secretFreeClassification(error);
    expect(classified).toMatchObject({
      reason: row.reason,
      status: row.status,
      ...FAILURE_FLAGS[row.reason],
    });
    expect(classified.message).toContain(row.message.slice(0, 40));
    if (row.retryAfterMs !== undefined) expect(classified.retryAfterMs).toBe(row.retryAfterMs);
    // The cause is the SDK's own typed exception.
    expect((error as Error).cause).toMatchObject({ name: row.type });
  });

  it('classifies the non-streamed Converse call alike', async () => {
    const { provider } = await startBedrockRig(
      script().fault({
        kind: 'http',
        status: 429,
        message: 'Too many requests, please wait before trying again.',
        byProtocol: { 'bedrock-converse': { errorType: 'ThrottlingException' } },
      }),
    );
    const error = await rejectionOf(provider.chat(askBedrock(false)));
    expect(secretFreeClassification(error)).toMatchObject({ reason: 'rate_limit', status: 429 });
  });
});

describe('bedrock-converse: exceptions inside the stream, classified', () => {
  it.each(fixtures.stream.map((row) => [row.label, row] as const))(
    '%s (the SDK exception)',
    (_label, row) => {
      const exception = new BedrockRuntimeServiceException({
        name: row.type,
        $fault: 'server',
        $metadata: {},
        message: row.message,
      });
      const classified = classifyFailure(exception);
      expect(classified).toMatchObject({ reason: row.reason, ...FAILURE_FLAGS[row.reason] });
      expect(classified.status).toBeUndefined();
    },
  );

  it('the typed exception classes classify like the generic one', () => {
    const throttled = new ThrottlingException({ message: 'Too many tokens.', $metadata: {} });
    expect(classifyFailure(throttled).reason).toBe('rate_limit');
    const tooLong = new ValidationException({
      message: 'Input is too long for requested model.',
      $metadata: { httpStatusCode: 400 },
    });
    expect(classifyFailure(tooLong)).toMatchObject({ reason: 'context_overflow', status: 400 });
  });

  it('an exception member the reader meets is raised and classified by its name', () => {
    const reader = new BedrockStreamReader(new StreamAccumulator());
    reader.handle({ messageStart: { role: 'assistant' } });
    let raised: unknown;
    try {
      reader.handle({ throttlingException: { message: 'Too many tokens.' } });
    } catch (error) {
      raised = error;
    }
    expect(classifyFailure(raised)).toMatchObject({ reason: 'rate_limit', retryable: true });
  });

  it('a malformed event is an unknown failure, not a crash', () => {
    const reader = new BedrockStreamReader(new StreamAccumulator());
    let raised: unknown;
    try {
      reader.handle({ contentBlockDelta: { contentBlockIndex: 'zero', delta: {} } });
    } catch (error) {
      raised = error;
    }
    expect(raised).toMatchObject({ name: 'BedrockProtocolError' });
    expect(classifyFailure(raised).reason).toBe('unknown');
  });
});
