/**
 * The adapters the gateway binary knows how to build from `platforms:`, and the construction of
 * every enabled one: a built-in adapter when there is one, else the adapter a plugin created
 * (`loadGatewayPlugins`); an enabled platform served by neither is reported and skipped.
 */
import {
  type AdapterLog,
  ApiServerAdapter,
  type JobsApi,
  type PlatformAdapter,
  type PlatformSettings,
  resolveApiServerSettings,
  resolveWebhookSettings,
  WebhookAdapter,
  type WebhookDeliver,
} from '@hermes/gateway';

/** What an adapter may need from the gateway it will be connected to. */
export interface AdapterWiring {
  readonly log: AdapterLog;
  /** The gateway's state, for `/health`. */
  readonly health: () => unknown;
  /** The gateway's `deliver`, for answers addressed to another platform's chat. */
  readonly deliver: WebhookDeliver;
  /** Scheduled jobs for the API server's `/api/jobs` (absent without a cron service). */
  readonly jobs?: JobsApi;
}

type AdapterBuilder = (platform: PlatformSettings, wiring: AdapterWiring) => PlatformAdapter;

/** Platform name → how its adapter is built from its `platforms.<name>` entry. */
export const KNOWN_ADAPTERS: Readonly<Record<string, AdapterBuilder>> = {
  api_server: (platform, wiring) =>
    new ApiServerAdapter({
      settings: resolveApiServerSettings(platform.raw),
      health: wiring.health,
      log: wiring.log,
      ...(wiring.jobs ? { jobs: wiring.jobs } : {}),
    }),
  webhook: (platform, wiring) =>
    new WebhookAdapter({
      settings: resolveWebhookSettings(platform.raw),
      deliver: wiring.deliver,
      log: wiring.log,
    }),
};

/** Adapters plugins created, and why the other platforms without a built-in adapter have none. */
export interface PluginAdapters {
  /** By the `platforms.<name>` each serves. */
  readonly adapters: ReadonlyMap<string, PlatformAdapter>;
  /** One warning per platform, by name (its plugin failed, or which plugin would serve it). */
  readonly unserved: ReadonlyMap<string, string>;
}

/** What an enabled platform nothing serves is told when no plugin was consulted. */
export function noAdapterWarning(platform: string): string {
  return (
    `platform ${platform} is enabled but no adapter provides it: no built-in adapter serves it ` +
    'and no enabled plugin registers it (install a plugin that provides it and add it to ' +
    'plugins.enabled)'
  );
}

/** The adapters built, and one warning per enabled platform nothing here serves. */
export interface BuiltAdapters {
  readonly adapters: readonly PlatformAdapter[];
  readonly warnings: readonly string[];
}

/**
 * Builds an adapter for every enabled platform in `platforms` that {@link KNOWN_ADAPTERS} serves,
 * takes the one `plugins` created for each other, and warns about the rest (in `platforms:`
 * order). Building connects nothing: sockets open when the gateway starts.
 *
 * @throws what an adapter's constructor throws: a `ValidationError` for a bad entry, a
 *   HermesError `gateway.api_key_missing` / `gateway.api_key_too_short` for an unusable key.
 */
export function buildAdapters(
  platforms: readonly PlatformSettings[],
  wiring: AdapterWiring,
  plugins?: PluginAdapters,
): BuiltAdapters {
  const adapters: PlatformAdapter[] = [];
  const warnings: string[] = [];
  for (const platform of platforms) {
    if (!platform.enabled) continue;
    const build = Object.hasOwn(KNOWN_ADAPTERS, platform.name)
      ? KNOWN_ADAPTERS[platform.name]
      : undefined;
    const fromPlugin = build ? undefined : plugins?.adapters.get(platform.name);
    if (build) adapters.push(build(platform, wiring));
    else if (fromPlugin) adapters.push(fromPlugin);
    else warnings.push(plugins?.unserved.get(platform.name) ?? noAdapterWarning(platform.name));
  }
  return { adapters, warnings };
}

/** Where an adapter listens, as a URL, when it is an HTTP server that has started. */
export function listeningUrl(adapter: PlatformAdapter): string | undefined {
  const listening = (adapter as { listening?: { host: string; port: number } }).listening;
  if (!listening) return undefined;
  const host = listening.host.includes(':') ? `[${listening.host}]` : listening.host;
  return `http://${host}:${listening.port}`;
}
