/**
 * Every testkit fault preset, over real HTTP, through both OpenAI adapters, streamed and not:
 * each rejects with a ProviderError carrying the expected classification, and no error ever
 * shows the API key.
 */
import { type Fault, faults, script } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { type ClassifiedError, isProviderError, type ModelProvider } from '../src/index.js';
import {
  API_KEY,
  type OpenAIProtocol,
  SECRET_PART,
  useScriptedServer,
} from './support/adapter-openai-harness.js';

type Protocol = OpenAIProtocol;

const server = useScriptedServer();

function failingProvider(protocol: Protocol, fault: Fault): Promise<ModelProvider> {
  return server.start(protocol, script().text('Hello from the model').fault(fault));
}

async function failure(provider: ModelProvider, stream: boolean): Promise<unknown> {
  return provider
    .chat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], stream })
    .then(
      () => {
        throw new Error('the call resolved');
      },
      (error: unknown) => error,
    );
}

type Expected = Partial<ClassifiedError> & Pick<ClassifiedError, 'reason'>;

/** Each preset with the classification it must produce (flags that matter for the preset). */
function presets(protocol: Protocol): Array<[string, Fault, Expected]> {
  return [
    [
      'rateLimited',
      faults.rateLimited(7),
      {
        reason: 'rate_limit',
        retryable: true,
        shouldRotateCredential: true,
        retryAfterMs: 7_000,
        status: 429,
      },
    ],
    [
      'unauthorized',
      faults.unauthorized(),
      { reason: 'auth', retryable: false, shouldRotateCredential: true, status: 401 },
    ],
    [
      'usageLimit',
      faults.usageLimit(5),
      {
        reason: 'rate_limit',
        retryable: true,
        shouldRotateCredential: true,
        retryAfterMs: 300_000,
        status: 402,
      },
    ],
    [
      'insufficientCredits',
      faults.insufficientCredits(),
      { reason: 'billing', retryable: false, status: 402 },
    ],
    [
      'modelNotFound',
      faults.modelNotFound('gpt-4o'),
      { reason: 'model_not_found', retryable: false, shouldFallback: true, status: 404 },
    ],
    [
      'payloadTooLarge',
      faults.payloadTooLarge(),
      { reason: 'payload_too_large', shouldCompress: true, status: 413 },
    ],
    [
      'contextLength',
      faults.contextLength(),
      { reason: 'context_overflow', shouldCompress: true, status: 400 },
    ],
    [
      'badRequest',
      faults.badRequest('Invalid value for messages.'),
      { reason: 'format_error', retryable: false, shouldFallback: false, status: 400 },
    ],
    ['serverError', faults.serverError(), { reason: 'server_error', retryable: true, status: 500 }],
    ['unavailable', faults.unavailable(), { reason: 'overloaded', retryable: true, status: 503 }],
    ['overloaded', faults.overloaded(), { reason: 'overloaded', retryable: true, status: 529 }],
    [
      'temporarilyOverloaded',
      faults.temporarilyOverloaded(),
      { reason: 'overloaded', shouldRotateCredential: false, status: 429 },
    ],
    [
      'htmlErrorPage',
      faults.htmlErrorPage(),
      { reason: 'server_error', retryable: true, status: 502 },
    ],
    ['nonJson200', faults.nonJson200(), { reason: 'unknown', retryable: true }],
    ['malformedSse', faults.malformedSse(protocol), { reason: 'unknown', retryable: true }],
    ['emptyBody', faults.emptyBody(), { reason: 'unknown', retryable: true }],
  ];
}

function assertNoSecret(error: unknown): void {
  expect(String((error as Error).message)).not.toContain(SECRET_PART);
  expect(JSON.stringify(error)).not.toContain(SECRET_PART);
  if (isProviderError(error)) expect(error.classified.message).not.toContain(SECRET_PART);
}

for (const protocol of ['openai-chat', 'openai-responses'] as const) {
  describe(`${protocol} fault presets`, () => {
    for (const stream of [true, false]) {
      it.each(presets(protocol))(
        `%s → the expected classification (stream: ${stream})`,
        async (_name, fault, expected) => {
          const provider = await failingProvider(protocol, fault);
          const error = await failure(provider, stream);
          expect(isProviderError(error)).toBe(true);
          if (!isProviderError(error)) return;
          expect(error.classified).toMatchObject(expected);
          expect(error.code).toBe(`provider.${expected.reason}`);
          expect(error.retryable).toBe(error.classified.retryable);
          expect(error.classified.message.length).toBeGreaterThan(0);
          assertNoSecret(error);
          expect(server.current().requests).toHaveLength(1);
        },
      );
    }

    it('masks the API key when the service echoes it back', async () => {
      const provider = await failingProvider(protocol, {
        kind: 'http',
        status: 401,
        message: `Incorrect API key provided: ${API_KEY}. You can find your API key at the dashboard.`,
        headers: {},
      });
      const error = await failure(provider, true);
      expect(error).toMatchObject({ code: 'provider.auth' });
      expect((error as Error).message).toContain('Incorrect API key provided');
      assertNoSecret(error);
    });

    it('classifies a refused connection as a retryable server error', async () => {
      const provider = await failingProvider(protocol, faults.serverError());
      await server.current().close();
      const error = await failure(provider, true);
      expect(error).toMatchObject({ code: 'provider.server_error', retryable: true });
      assertNoSecret(error);
    });
  });
}
