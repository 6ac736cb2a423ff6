/**
 * The connectivity test of `hermes setup` and `hermes doctor`: list the provider's models (or,
 * when it cannot list them, make one tiny chat call) with a short timeout, and say in one line
 * what happened — the failure classified (`auth`, `timeout`, `model_not_found`, …) with a fix.
 */
import {
  classifyApiError,
  createProvider,
  type FailureReason,
  type ProviderConfigInput,
} from '@hermes/providers';

type Env = Readonly<Record<string, string | undefined>>;

/** Default time the whole test may take. */
export const CONNECTIVITY_TIMEOUT_MS = 10_000;

/** The outcome, in one line. */
export interface ConnectivityResult {
  readonly ok: boolean;
  /** One line: what worked, or the classified failure and what to do. */
  readonly line: string;
  /** The failure's class, when it failed. */
  readonly reason?: FailureReason;
}

/** Options of {@link testConnectivity}. */
export interface ConnectivityOptions {
  readonly timeoutMs?: number;
  /** For tests: the `fetch` the adapter uses. */
  readonly fetch?: typeof fetch;
}

const FIXES: Partial<Record<FailureReason, string>> = {
  auth: 'the key was rejected: check it, then run `hermes setup` again',
  auth_permanent: 'the key is not allowed to use this service or model',
  billing: 'the account is out of credits',
  rate_limit: 'rate limited: try again in a minute',
  model_not_found:
    'the model name is not known there: check it (`hermes config set model.default <name>`)',
  timeout: 'no answer in time: is the server running and the base URL right?',
  server_error: 'could not reach the server, or it failed: is it running and the base URL right?',
  overloaded: 'the service is overloaded: try again later',
  unknown: 'is the server running and the base URL right?',
};

function failure(
  error: unknown,
  entry: ProviderConfigInput,
  timedOut: boolean,
): ConnectivityResult {
  const classified = classifyApiError(error, { provider: entry.provider, model: entry.model });
  const reason: FailureReason = timedOut ? 'timeout' : classified.reason;
  const fix = FIXES[reason] ?? 'see `hermes doctor`';
  const where = entry.baseUrl ? ` at ${entry.baseUrl}` : '';
  return {
    ok: false,
    reason,
    line: `${entry.provider}${where}: failed (${reason}): ${classified.message.split('\n')[0]} — ${fix}`,
  };
}

/** Reasons that mean "this server has no model listing", so a chat call decides instead. */
const NO_LISTING: ReadonlySet<FailureReason> = new Set([
  'model_not_found',
  'format_error',
  'unknown',
]);

/**
 * The result of listing the models, or undefined when the server lists none or has no listing
 * (then a chat call decides).
 */
async function listing(
  created: ReturnType<typeof createProvider>,
  entry: ProviderConfigInput,
  signal: AbortSignal,
): Promise<ConnectivityResult | undefined> {
  const where = entry.baseUrl ? ` at ${entry.baseUrl}` : '';
  try {
    const models = await created.provider.listModels({ signal });
    if (models.length === 0) return undefined;
    const note = models.some((m) => m.id === entry.model)
      ? `; ${entry.model} is available`
      : `; ${entry.model} is not among them — check the name`;
    return {
      ok: true,
      line: `${entry.provider}${where}: connected, ${models.length} models listed${note}`,
    };
  } catch (error) {
    const reason = classifyApiError(error, { provider: entry.provider, model: entry.model }).reason;
    if (signal.aborted || !NO_LISTING.has(reason)) return failure(error, entry, signal.aborted);
    return undefined;
  }
}

/**
 * Tests `entry` (as `loadHermesConfig` returns it): no retries, no fallback, one timeout for all.
 * Never throws.
 */
export async function testConnectivity(
  entry: ProviderConfigInput,
  env: Env,
  options: ConnectivityOptions = {},
): Promise<ConnectivityResult> {
  const { fallback: _fallback, ...primary } = entry;
  const signal = AbortSignal.timeout(options.timeoutMs ?? CONNECTIVITY_TIMEOUT_MS);
  let created: ReturnType<typeof createProvider>;
  try {
    created = createProvider(
      { ...primary, retry: { maxAttempts: 1 } },
      { env, ...(options.fetch ? { fetch: options.fetch } : {}) },
    );
  } catch (error) {
    return { ok: false, line: `${entry.provider}: ${(error as Error).message.split('\n')[0]}` };
  }
  try {
    const listed = await listing(created, entry, signal);
    if (listed) return listed;
    await created.provider.chat(
      {
        model: created.model,
        messages: [{ role: 'user', content: 'Reply with OK.' }],
        maxOutputTokens: 8,
      },
      { signal },
    );
    const where = entry.baseUrl ? ` at ${entry.baseUrl}` : '';
    return { ok: true, line: `${entry.provider}${where}: connected, ${entry.model} answered` };
  } catch (error) {
    return failure(error, entry, signal.aborted);
  } finally {
    await created.provider.close();
  }
}
