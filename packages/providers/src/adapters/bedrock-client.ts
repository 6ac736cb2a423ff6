/** Building the official `@aws-sdk/client-bedrock-runtime` client the way Hermes needs it. */
import type {
  BedrockRuntimeClient,
  BedrockRuntimeClientConfig,
} from '@aws-sdk/client-bedrock-runtime';
import { BedrockFetchHandler } from './bedrock-http-handler.js';
import type { ResolvedBedrockOptions } from './bedrock-options.js';

/** How the client authenticates, from the options (see {@link createBedrockClient}). */
export function authConfig(options: ResolvedBedrockOptions): Partial<BedrockRuntimeClientConfig> {
  if (options.apiKey !== undefined) {
    return { token: { token: options.apiKey }, authSchemePreference: ['httpBearerAuth'] };
  }
  if (options.credentials !== undefined) return { credentials: { ...options.credentials } };
  // Neither: the SDK's default chain, for the configured profile or `AWS_PROFILE`.
  return options.profile === undefined ? {} : { profile: options.profile };
}

/**
 * A client for `options`:
 * - `maxAttempts: 1` — retrying, credential rotation and fallback are the host's job (the SDK
 *   would otherwise retry throttling and 5xx invisibly, up to three times);
 * - auth: a Bedrock API key as a bearer token (`authSchemePreference: httpBearerAuth`), else
 *   static credentials, else the SDK's default credential chain — nothing Hermes reads itself;
 * - `endpoint` only when `baseUrl` is set (a VPC endpoint, a gateway, the testkit); otherwise
 *   the SDK derives `bedrock-runtime.<region>.amazonaws.com` from the region;
 * - transport: {@link BedrockFetchHandler} (HTTP/1.1 over `fetch`, honouring `options.fetch`
 *   and adding `defaultHeaders`).
 */
export async function createBedrockClient(
  options: ResolvedBedrockOptions,
): Promise<BedrockRuntimeClient> {
  // Imported on first use: the SDK is large, and a CLI configured for another provider must not
  // pay for loading it.
  const sdk = await import('@aws-sdk/client-bedrock-runtime');
  quietNodeVersionWarning();
  return new sdk.BedrockRuntimeClient({
    region: options.region,
    ...(options.baseUrl === undefined ? {} : { endpoint: options.baseUrl }),
    ...authConfig(options),
    maxAttempts: 1,
    requestHandler: new BedrockFetchHandler(options.fetch, options.defaultHeaders),
  });
}

/**
 * The SDK warns on Node 20 that its releases after January 2027 will need Node 22. The version
 * Hermes pins runs on Node 20, so the warning would only be noise in every chat's output; it is
 * turned off unless the person set the SDK's own switch either way.
 */
function quietNodeVersionWarning(): void {
  const name = 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED';
  if (process.env[name] === undefined) process.env[name] = 'true';
}
