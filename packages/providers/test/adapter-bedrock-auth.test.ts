/**
 * How the Bedrock adapter authenticates and finds its region, over real HTTP: a Bedrock API key
 * goes as a bearer token; without one the AWS SDK's default credential chain signs (here from
 * the environment: the machine's own AWS files and instance metadata are pointed nowhere);
 * `createProvider` builds a keyless Bedrock entry and describes it without a secret.
 */
import { join } from 'node:path';
import { script } from '@hermes/testkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BEDROCK_DEFAULT_REGION, resolveBedrockOptions } from '../src/adapters/bedrock-options.js';
import { BedrockConverseProvider } from '../src/adapters/bedrock-provider.js';
import { createProvider } from '../src/create-provider.js';
import {
  askBedrock,
  closeBedrockRigs,
  converseRequests,
  MODEL,
  rejectionOf,
  startBedrockRig,
} from './support/bedrock-rig.js';

const BEARER = 'ABSKQmVkcm9ja0FQSUtleS1TRUNSRVQxMjM0NTY3ODkw';
const ENV_SECRET = 'envSecretKey/ENVSECRET0123456789';

/** Every variable the AWS SDK's default chain reads, pointed at nothing. */
function isolateAwsEnvironment(): void {
  const nowhere = join(process.env.HERMES_HOME ?? '/nonexistent', 'no-such-aws-dir');
  vi.stubEnv('AWS_CONFIG_FILE', join(nowhere, 'config'));
  vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', join(nowhere, 'credentials'));
  vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
  for (const name of [
    'AWS_PROFILE',
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
    'AWS_REGION',
    'AWS_DEFAULT_REGION',
    'AWS_BEARER_TOKEN_BEDROCK',
    'AWS_WEB_IDENTITY_TOKEN_FILE',
    'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
    'AWS_CONTAINER_CREDENTIALS_FULL_URI',
  ]) {
    vi.stubEnv(name, undefined);
  }
}

beforeEach(isolateAwsEnvironment);
afterEach(async () => {
  await closeBedrockRigs();
  vi.unstubAllEnvs();
});

describe('bedrock-converse: auth', () => {
  it('sends a Bedrock API key as a bearer token, not a signature', async () => {
    const { provider, server } = await startBedrockRig(script().text('ok'), {
      apiKey: BEARER,
      credentials: undefined,
    });
    await provider.chat(askBedrock(true));
    const headers = converseRequests(server)[0]?.headers ?? {};
    expect(headers.authorization).toBe(`Bearer ${BEARER}`);
    expect(headers['x-amz-date']).toBeUndefined();
  });

  it('signs with the default chain (environment credentials) and the region from AWS_REGION', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDENV');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', ENV_SECRET);
    vi.stubEnv('AWS_REGION', 'eu-west-3');
    const { provider, server } = await startBedrockRig(script().text('ok'), {
      credentials: undefined,
      region: undefined,
    });
    await provider.chat(askBedrock(false));
    expect(converseRequests(server)[0]?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDENV\/\d{8}\/eu-west-3\/bedrock\/aws4_request,/,
    );
  });

  it('without any credential, fails as auth before sending anything', async () => {
    const { provider, server } = await startBedrockRig(script().text('unused'), {
      credentials: undefined,
    });
    const error = await rejectionOf(provider.chat(askBedrock(true)));
    expect(error).toMatchObject({
      code: 'provider.auth',
      classified: { reason: 'auth', retryable: false, shouldFallback: true },
    });
    expect(converseRequests(server)).toHaveLength(0);
  });

  it('never shows a secret in an error, even one the service echoes back', async () => {
    const { provider } = await startBedrockRig(
      script().fault({ kind: 'http', status: 403, message: `Token ${BEARER} is not valid.` }),
      { apiKey: BEARER, credentials: undefined },
    );
    const error = await rejectionOf(provider.chat(askBedrock(true)));
    expect(error).toMatchObject({ code: 'provider.auth' });
    expect(JSON.stringify(error)).not.toContain(BEARER);
    expect((error as Error).message).not.toContain(BEARER);
  });
});

describe('bedrock-converse: region', () => {
  const resolve = (options: Parameters<typeof resolveBedrockOptions>[0]) =>
    resolveBedrockOptions(options).region;

  it('takes the option, then the endpoint host, then AWS_REGION, AWS_DEFAULT_REGION, us-east-1', () => {
    const env = { AWS_REGION: 'eu-west-1', AWS_DEFAULT_REGION: 'ap-south-1' };
    expect(resolve({ region: 'us-west-2', env })).toBe('us-west-2');
    expect(resolve({ baseUrl: 'https://bedrock-runtime.eu-central-1.amazonaws.com', env })).toBe(
      'eu-central-1',
    );
    expect(resolve({ env })).toBe('eu-west-1');
    expect(resolve({ env: { AWS_DEFAULT_REGION: 'ap-south-1' } })).toBe('ap-south-1');
    expect(resolve({ env: {} })).toBe(BEDROCK_DEFAULT_REGION);
    expect(BEDROCK_DEFAULT_REGION).toBe('us-east-1');
  });

  it('rejects a malformed region without echoing a secret', () => {
    expect(() => resolveBedrockOptions({ region: 'Mars', apiKey: BEARER, env: {} })).toThrowError(
      /region/,
    );
    try {
      resolveBedrockOptions({ region: 'Mars', apiKey: BEARER, env: {} });
    } catch (error) {
      expect(JSON.stringify(error)).not.toContain(BEARER);
    }
  });
});

describe('bedrock-converse: createProvider', () => {
  it('builds a keyless bedrock entry on the default chain and describes it without a secret', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDENV');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', ENV_SECRET);
    const { server } = await startBedrockRig(script().text('Hello from the chain.'));
    const created = createProvider({
      provider: 'bedrock',
      model: MODEL,
      baseUrl: server.baseUrl('bedrock-converse'),
    });
    expect(created.apiMode).toBe('bedrock_converse');
    const response = await created.provider.chat(askBedrock(true));
    expect(response.message.content).toBe('Hello from the chain.');
    expect(converseRequests(server)[0]?.headers.authorization).toMatch(/Credential=AKIDENV\//);
    const description = created.describe();
    expect(description).toMatchObject({
      adapter: 'bedrock-converse',
      keys: { count: 0, source: 'sdk_default', variables: ['AWS_BEARER_TOKEN_BEDROCK'] },
    });
    expect(JSON.stringify(description)).not.toContain(ENV_SECRET);
    await created.provider.close();
  });

  it('uses AWS_BEARER_TOKEN_BEDROCK as a Bedrock API key, never showing it', async () => {
    const { server } = await startBedrockRig(script().text('ok'));
    const created = createProvider(
      { provider: 'amazon-bedrock', model: MODEL, baseUrl: server.baseUrl('bedrock-converse') },
      { env: { AWS_BEARER_TOKEN_BEDROCK: BEARER } },
    );
    await created.provider.chat(askBedrock(true));
    expect(converseRequests(server)[0]?.headers.authorization).toBe(`Bearer ${BEARER}`);
    const description = created.describe();
    expect(description.keys).toMatchObject({ count: 1, source: 'default_env' });
    expect(JSON.stringify(description)).not.toContain(BEARER);
    await created.provider.close();
  });

  it('still requires a variable that the config names explicitly', () => {
    expect(() =>
      createProvider(
        { provider: 'bedrock', model: MODEL, apiKeyEnv: 'MY_BEDROCK_KEY' },
        { env: {} },
      ),
    ).toThrowError(/MY_BEDROCK_KEY/);
  });

  it('is a BedrockConverseProvider under the bedrock names', () => {
    for (const provider of ['bedrock', 'aws-bedrock', 'amazon-bedrock']) {
      const created = createProvider({ provider, model: MODEL }, { env: {} });
      expect(created.describe().adapter).toBe('bedrock-converse');
    }
    expect(new BedrockConverseProvider({ env: {} }).region).toBe('us-east-1');
  });
});
