/**
 * `hermes plugins list [--json]`: one row per plugin found — name, version, source, whether it is
 * enabled, its state and what it registered — and the folders that are not valid plugins. The
 * enabled plugins are really loaded (their `register` runs) so the state is the one `chat` and
 * the gateway would see, not a guess from the config.
 */
import { ExitCode } from '@hermes/config';
import {
  bundledPluginDirs,
  checkConfig,
  configError,
  loadPlugins,
  mergeDotenv,
  type PluginStatus,
  PluginsSectionSchema,
  readConfigSource,
} from '@hermes/runtime';
import type { CommandContext } from '../../command-context.js';
import { table } from '../sessions/format.js';

const REGISTERED_KINDS = [
  'tools',
  'hooks',
  'commands',
  'platforms',
  'memoryProviders',
  'contextEngines',
] as const;

/** `tools: greet; hooks: preToolCall, preLlmCall`, or `-` when it registered nothing. */
function registeredSummary(status: PluginStatus): string {
  const parts = REGISTERED_KINDS.filter((kind) => status.registered[kind].length > 0).map(
    (kind) => `${kind}: ${status.registered[kind].join(', ')}`,
  );
  return parts.length > 0 ? parts.join('; ') : '-';
}

function render(statuses: readonly PluginStatus[]): string {
  if (statuses.length === 0) {
    return 'No plugins found. Install one with: hermes plugins install <folder|tarball|npm-spec>\n';
  }
  const header = ['NAME', 'VERSION', 'SOURCE', 'ENABLED', 'STATE', 'REGISTERED'];
  const rows = statuses.map((s) => [
    s.name,
    s.version ?? '-',
    s.source,
    s.enabled ? 'yes' : 'no',
    s.state,
    registeredSummary(s),
  ]);
  const lines = table([header, ...rows]);
  const notes = statuses
    .filter((s) => s.message !== undefined && s.state !== 'loaded')
    .map((s) => `  ${s.name} (${s.state}): ${s.message} [${s.dir}]`);
  return `${[...lines, ...(notes.length > 0 ? ['', 'Problems:', ...notes] : [])].join('\n')}\n`;
}

/** The validated config.yaml. @throws HermesError `config.invalid` naming each problem */
function readConfig(ctx: CommandContext) {
  const source = readConfigSource(ctx.hermesHome);
  const { env } = mergeDotenv(ctx.hermesHome, ctx.env);
  const check = checkConfig(source, env, ctx.hermesHome);
  if (check.config === undefined) throw configError(source.path, check.problems);
  return { file: check.config, env };
}

/** Runs `hermes plugins list`; resolves to the exit code. */
export async function listPlugins(
  ctx: CommandContext,
  options: { readonly json: boolean },
): Promise<number> {
  const { file, env } = readConfig(ctx);
  const memoryProvider = file.memory?.provider;
  const contextEngine = file.context?.engine;
  const loaded = await loadPlugins({
    hermesHome: ctx.hermesHome,
    cwd: process.cwd(),
    env: env as NodeJS.ProcessEnv,
    bundledDirs: bundledPluginDirs(import.meta.url),
    config: file.plugins ?? PluginsSectionSchema.parse({}),
    select: {
      ...(memoryProvider === undefined ? {} : { memoryProvider }),
      ...(contextEngine === undefined ? {} : { contextEngine }),
    },
    // The states say what went wrong; the plugins' own log lines would only repeat it.
    logger: { info() {}, warn() {}, error() {} },
  });
  ctx.stdout.write(
    options.json ? `${JSON.stringify(loaded.statuses, null, 2)}\n` : render(loaded.statuses),
  );
  return ExitCode.ok;
}
