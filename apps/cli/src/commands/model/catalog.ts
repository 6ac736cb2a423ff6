/**
 * The models of the configured provider, as `hermes model` and the REPL's `/model` show them:
 * its own listing (`listModels`, the `/models` endpoint) when it answers in time, else the
 * built-in table. Each model carries its context length and, when the price table knows it, its
 * price. Never throws: a provider that cannot list becomes one classified line, never a key.
 */
import { knownPrice } from '@hermes/loop';
import {
  classifyApiError,
  createProvider,
  lookupModelLimits,
  type ModelInfo,
  type ProviderConfigInput,
} from '@hermes/providers';
import { builtinModels } from './builtin-models.js';

type Env = Readonly<Record<string, string | undefined>>;

/** How long the provider may take to list its models. */
export const LIST_TIMEOUT_MS = 10_000;

/** USD per million tokens. */
export interface ModelPriceRow {
  readonly input: number;
  readonly output: number;
}

/** One model of a {@link ModelCatalog}. */
export interface ModelRow {
  readonly id: string;
  /** Context window in tokens, when the listing or the table knows it. */
  readonly contextLength?: number;
  /** Price per million tokens, when the price table knows the model. */
  readonly price?: ModelPriceRow;
}

/** The models of one provider, and where the list came from. */
export interface ModelCatalog {
  readonly provider: string;
  readonly baseUrl?: string;
  /** `provider`: its own listing; `builtin`: the built-in table. */
  readonly source: 'provider' | 'builtin';
  /** Sorted by id. */
  readonly models: readonly ModelRow[];
  /** Why the provider's own listing is not shown, in one line (no key in it). */
  readonly problem?: string;
}

/** What to list: the configured provider (as `loadHermesConfig` resolves it). */
export interface CatalogTarget {
  /** The provider name, even when no entry could be built (no key). */
  readonly provider: string;
  /** The current model, for families and error messages. */
  readonly model?: string;
  /** The entry `createProvider` takes; absent when the configuration is incomplete. */
  readonly entry?: ProviderConfigInput;
  /** Why there is no entry. */
  readonly problem?: string;
}

/** Options of {@link loadModelCatalog}. */
export interface CatalogOptions {
  readonly timeoutMs?: number;
  /** Cancels the listing (Ctrl-C); the table is shown instead. */
  readonly signal?: AbortSignal;
  /** For tests: the `fetch` the adapter uses. */
  readonly fetch?: typeof fetch;
}

function row(id: string, listedContext: number | undefined): ModelRow {
  const contextLength = listedContext ?? lookupModelLimits(id)?.contextWindow;
  const price = knownPrice(id);
  return {
    id,
    ...(contextLength !== undefined ? { contextLength } : {}),
    ...(price ? { price: { input: price.input, output: price.output } } : {}),
  };
}

function sorted(rows: ModelRow[]): ModelRow[] {
  return rows.sort((a, b) => a.id.localeCompare(b.id));
}

function builtin(target: CatalogTarget, problem: string | undefined): ModelCatalog {
  const models = builtinModels(target.provider, target.model).map((m) =>
    row(m.id, m.contextLength),
  );
  return {
    provider: target.provider,
    ...(target.entry?.baseUrl ? { baseUrl: target.entry.baseUrl } : {}),
    source: 'builtin',
    models: sorted(models),
    ...(problem ? { problem } : {}),
  };
}

/** The failure of a listing as one line: the classified reason and the message's first line. */
function failureLine(error: unknown, target: CatalogTarget, timedOut: boolean): string {
  const classified = classifyApiError(error, {
    provider: target.provider,
    model: target.model ?? '',
  });
  const reason = timedOut ? 'timeout' : classified.reason;
  const message = timedOut ? 'no answer in time' : classified.message.split('\n')[0];
  return `could not list the models (${reason}): ${message}`;
}

async function listed(
  entry: ProviderConfigInput,
  env: Env,
  options: CatalogOptions,
  signal: AbortSignal,
): Promise<ModelInfo[]> {
  const { fallback: _fallback, ...primary } = entry;
  const created = createProvider(
    { ...primary, retry: { maxAttempts: 1 } },
    { env, ...(options.fetch ? { fetch: options.fetch } : {}) },
  );
  try {
    return await created.provider.listModels({ signal });
  } finally {
    await created.provider.close();
  }
}

/** The provider's models, or the built-in table with the reason its own list is missing. */
export async function loadModelCatalog(
  target: CatalogTarget,
  env: Env,
  options: CatalogOptions = {},
): Promise<ModelCatalog> {
  const { entry } = target;
  if (!entry) return builtin(target, target.problem);
  const timeout = AbortSignal.timeout(options.timeoutMs ?? LIST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  try {
    const models = await listed(entry, env, options, signal);
    if (models.length === 0) return builtin(target, 'the provider lists no models');
    return {
      provider: target.provider,
      ...(entry.baseUrl ? { baseUrl: entry.baseUrl } : {}),
      source: 'provider',
      models: sorted(models.map((m) => row(m.id, m.contextLength))),
    };
  } catch (error) {
    if (options.signal?.aborted) return builtin(target, 'listing cancelled');
    return builtin(target, failureLine(error, target, timeout.aborted));
  }
}

/** The configuration a catalog is built from (a `HermesConfig` fits). */
export interface CatalogConfig {
  readonly provider: ProviderConfigInput | undefined;
  readonly providerName?: string;
  readonly model?: string;
  readonly providerProblem?: string;
}

/** The target for `config`, or undefined when not even a provider name is known. */
export function catalogTarget(config: CatalogConfig, model?: string): CatalogTarget | undefined {
  const provider = config.provider?.provider ?? config.providerName;
  if (provider === undefined) return undefined;
  const current = model ?? config.provider?.model ?? config.model;
  return {
    provider,
    ...(current !== undefined ? { model: current } : {}),
    ...(config.provider ? { entry: config.provider } : {}),
    ...(config.providerProblem ? { problem: config.providerProblem } : {}),
  };
}
