/**
 * `hermes tools list [--json]`: every core tool grouped by toolset, whether it can actually run
 * here and whether the configured toolsets (`toolsets`, `disabled_toolsets` in config.yaml)
 * enable it. Availability is each tool's own `checkFn`, on the tools built with the configured
 * options (the `web:` backend, execute_code as the agents wire it), so the list says what an
 * agent would offer; a tool that cannot run says what to set.
 */
import { ExitCode } from '@hermes/config';
import { isHermesError } from '@hermes/protocol';
import {
  type HermesConfig,
  loadHermesConfig,
  readWebSection,
  webSearchChoice,
} from '@hermes/runtime';
import {
  type CoreToolsOptions,
  coreTools,
  type ExecuteCodeDispatch,
  loopOwnedToolStubs,
  ToolRegistry,
  type ToolSpec,
  type VisionBackend,
} from '@hermes/tools';
import type { CommandContext } from '../command-context.js';
import { parseCommandArgs, usageFailure, withUsage } from '../config/command-args.js';
import { oneLine, table } from './sessions/format.js';

const USAGE = `Usage: hermes tools list [--json]

Lists the tools by toolset: ✓ usable and enabled, ○ usable but not in the configured toolsets,
✗ not usable here (the reason is shown).
`;

/** One tool's row. */
interface ToolRow {
  readonly name: string;
  readonly toolset: string;
  readonly description: string;
  readonly available: boolean;
  readonly enabled: boolean;
  readonly reason?: string;
}

/** The core tools as the agents build them from `config`, and why a hidden one is hidden. */
interface ConfiguredTools {
  readonly options: CoreToolsOptions;
  /** Tool name → what to set for it to run (when its check fails). */
  readonly reasons: ReadonlyMap<string, string>;
}

/**
 * Never called: the listing only asks `execute_code` whether it can run. Agents give it their own
 * tool path (createAgent), which they always have.
 */
const listingOnly: ExecuteCodeDispatch = () =>
  Promise.reject(new Error('hermes tools does not run scripts'));

/** Never called either: the listing only asks `vision_analyze` whether it can run. */
const visionListingOnly: VisionBackend = {
  analyze: () => Promise.reject(new Error('hermes tools does not look at images')),
};

function configuredTools(config: HermesConfig, env: CommandContext['env']): ConfiguredTools {
  const reasons = new Map<string, string>();
  const web = webSearchChoice(readWebSection(config), env);
  if (!web.backend) reasons.set('web_search', web.problem);
  // execute_code runs its script beside the agent, so only on the local terminal backend.
  const backend = String(config.terminal?.backend ?? 'local');
  const local = backend === 'local';
  if (!local) reasons.set('execute_code', `runs only with terminal.backend local (not ${backend})`);
  // vision_analyze runs on the `vision` auxiliary slot: the main model unless configured.
  const model = config.provider !== undefined;
  if (!model) reasons.set('vision_analyze', 'needs a model (run `hermes setup`)');
  return {
    options: {
      ...(web.backend ? { webSearch: web.backend } : {}),
      ...(local ? { executeCode: { dispatch: listingOnly } } : {}),
      ...(model ? { vision: visionListingOnly } : {}),
    },
    reasons,
  };
}

async function availability(
  spec: ToolSpec,
  env: CommandContext['env'],
  reasons: ReadonlyMap<string, string>,
) {
  const missing = (spec.requiresEnv ?? []).filter((name) => !env[name]);
  if (missing.length > 0) return { available: false, reason: `needs ${missing.join(', ')}` };
  if (!spec.checkFn) return { available: true };
  try {
    return (await spec.checkFn())
      ? { available: true }
      : { available: false, reason: reasons.get(spec.name) ?? 'no backend configured' };
  } catch {
    return { available: false, reason: 'its availability check failed' };
  }
}

async function rows(ctx: CommandContext): Promise<ToolRow[]> {
  const config = await loadHermesConfig(ctx);
  const env = config.env ?? ctx.env;
  const configured = configuredTools(config, env);
  const registry = new ToolRegistry();
  for (const spec of [...coreTools(configured.options), ...loopOwnedToolStubs()]) {
    registry.register(spec);
  }
  const enabled = new Set(
    registry.toolsets.select(config.toolsets ?? ['hermes-cli'], config.disabledToolsets ?? []),
  );
  const out: ToolRow[] = [];
  for (const spec of registry.list()) {
    const { available, reason } = await availability(spec, env, configured.reasons);
    out.push({
      name: spec.name,
      toolset: spec.toolset,
      description: oneLine(spec.description, 70),
      available,
      enabled: enabled.has(spec.name),
      ...(reason ? { reason } : {}),
    });
  }
  return out;
}

function render(all: readonly ToolRow[]): string[] {
  const out: string[] = [];
  for (const toolset of [...new Set(all.map((row) => row.toolset))].sort()) {
    out.push(`${toolset}:`);
    const lines = all
      .filter((row) => row.toolset === toolset)
      .map((row) => [
        `  ${!row.available ? '✗' : row.enabled ? '✓' : '○'} ${row.name}`,
        row.available ? row.description : `(${row.reason})`,
      ]);
    out.push(...table(lines), '');
  }
  return out;
}

/** Runs `hermes tools`; resolves to the exit code. */
export function run(args: readonly string[], ctx: CommandContext): Promise<number> {
  return withUsage(ctx, 'tools', async () => {
    const { values, positionals } = parseCommandArgs(args, {
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean' },
    });
    const [sub = 'list'] = positionals;
    if (values.help || sub === 'help') {
      ctx.stdout.write(USAGE);
      return ExitCode.ok;
    }
    if (sub !== 'list') return usageFailure(ctx, 'tools', `unknown subcommand '${sub}'`);
    try {
      const all = await rows(ctx);
      ctx.stdout.write(values.json ? `${JSON.stringify(all, null, 2)}\n` : render(all).join('\n'));
      return ExitCode.ok;
    } catch (error) {
      if (!isHermesError(error)) throw error;
      ctx.stderr.write(`hermes tools: ${error.message}\n`);
      return ExitCode.failure;
    }
  });
}
