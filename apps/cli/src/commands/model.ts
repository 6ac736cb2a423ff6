/**
 * `hermes model [list|set <name>]`: the configured provider's models — its own listing when it
 * answers, the built-in table otherwise — with context length and price, and switching the
 * default model (`model.default` in config.yaml, comments kept).
 */
import { ExitCode, isUsageError } from '@hermes/config';
import { isHermesError } from '@hermes/protocol';
import {
  configFilePath,
  getConfigValue,
  type HermesConfig,
  loadHermesConfig,
  mergeDotenv,
  setConfigValue,
} from '@hermes/runtime';
import type { CommandContext } from '../command-context.js';
import { intOption, parseCommandArgs, usageFailure, withUsage } from '../config/command-args.js';
import {
  type CatalogTarget,
  catalogTarget,
  LIST_TIMEOUT_MS,
  loadModelCatalog,
} from './model/catalog.js';
import { catalogJson, catalogLines, inCatalog } from './model/render.js';

const USAGE = `Usage: hermes model [list|set <name>]

  list          the configured provider and its models (the default): its own list when it
                answers, the built-in table otherwise; context length and price per 1M tokens
                (input / output) where known; * marks the default model
  set <name>    make <name> the default model (model.default in config.yaml)

  --json        list: print JSON for scripts
  --timeout S   seconds the provider may take to list its models (default 10)
  --no-check    set: do not ask the provider whether it knows the name
`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
  timeout: { type: 'string' },
  'no-check': { type: 'boolean' },
} as const;

interface ModelRun {
  readonly ctx: CommandContext;
  readonly config: HermesConfig;
  readonly target: CatalogTarget;
  readonly timeoutMs: number;
  readonly json: boolean;
}

function catalogFor(run: ModelRun) {
  return loadModelCatalog(run.target, run.config.env ?? run.ctx.env, {
    timeoutMs: run.timeoutMs,
    ...(run.ctx.signal ? { signal: run.ctx.signal } : {}),
  });
}

async function list(run: ModelRun): Promise<number> {
  const { ctx, target } = run;
  const catalog = await catalogFor(run);
  if (run.json) {
    ctx.stdout.write(`${JSON.stringify(catalogJson(catalog, target.model), null, 2)}\n`);
    return ExitCode.ok;
  }
  const where = catalog.baseUrl ? ` at ${catalog.baseUrl}` : '';
  ctx.stdout.write(`Provider: ${target.provider}${where}\n`);
  ctx.stdout.write(`Default model: ${target.model ?? '(none)'}\n`);
  ctx.stdout.write(`${catalogLines(catalog, target.model).join('\n')}\n`);
  return ExitCode.ok;
}

async function set(run: ModelRun, name: string, check: boolean): Promise<number> {
  const { ctx } = run;
  if (check) {
    const catalog = await catalogFor(run);
    if (catalog.problem) ctx.stderr.write(`hermes model: ${catalog.problem}\n`);
    if (!inCatalog(catalog, name)) {
      const source = catalog.source === 'provider' ? run.target.provider : 'the built-in table';
      ctx.stderr.write(
        `warning: ${name} is not among the models of ${source}; set anyway (check the spelling)\n`,
      );
    }
  }
  const previous = getConfigValue(ctx.hermesHome, ['model', 'default']);
  const was = typeof previous === 'string' ? previous : undefined;
  if (was === name) {
    ctx.stdout.write(`The default model is already ${name}; nothing changed.\n`);
    return ExitCode.ok;
  }
  const { env } = mergeDotenv(ctx.hermesHome, ctx.env);
  setConfigValue(ctx.hermesHome, ['model', 'default'], name, env);
  ctx.stdout.write(
    `Default model: ${was ?? '(not set)'} → ${name} (model.default in ${configFilePath(ctx.hermesHome)})\n`,
  );
  return ExitCode.ok;
}

async function dispatch(
  positionals: readonly string[],
  values: Readonly<Record<string, string | boolean>>,
  ctx: CommandContext,
): Promise<number> {
  const [sub = 'list', ...rest] = positionals;
  if (sub !== 'list' && sub !== 'set') {
    return usageFailure(ctx, 'model', `unknown subcommand '${sub}'`);
  }
  const [name, ...extra] = rest;
  if (sub === 'set' && name === undefined) {
    return usageFailure(ctx, 'model', "'set' needs a model name, e.g. set gpt-4o");
  }
  const unexpected = sub === 'list' ? rest[0] : extra[0];
  if (unexpected !== undefined) {
    return usageFailure(ctx, 'model', `unexpected argument '${unexpected}'`);
  }
  const timeoutS = intOption(values, 'timeout');
  const config = await loadHermesConfig(ctx);
  const target = catalogTarget(config);
  if (!target) {
    ctx.stderr.write(`hermes model: ${config.providerProblem ?? 'no provider is configured'}\n`);
    return ExitCode.failure;
  }
  const run: ModelRun = {
    ctx,
    config,
    target,
    timeoutMs: timeoutS === undefined ? LIST_TIMEOUT_MS : timeoutS * 1000,
    json: values.json === true,
  };
  return name === undefined || sub === 'list'
    ? list(run)
    : set(run, name, values['no-check'] !== true);
}

/** Runs `hermes model`; resolves to the exit code. */
export function run(args: readonly string[], ctx: CommandContext): Promise<number> {
  return withUsage(ctx, 'model', async () => {
    const { values, positionals } = parseCommandArgs(args, OPTIONS);
    if (values.help || positionals[0] === 'help') {
      ctx.stdout.write(USAGE);
      return ExitCode.ok;
    }
    try {
      return await dispatch(positionals, values, ctx);
    } catch (error) {
      // A usage mistake (a bad --timeout) is withUsage's to report, with exit code 2.
      if (isUsageError(error) || !isHermesError(error)) throw error;
      ctx.stderr.write(`hermes model: ${error.message}\n`);
      return ExitCode.failure;
    }
  });
}
