/**
 * `hermes config show|get|set|unset|path|check`: reads and edits config.yaml (comments kept,
 * atomic writes) and `.env` (API keys and other variables; mode 0600). Secrets never go into
 * config.yaml and are masked whenever they are shown.
 */
import { ExitCode } from '@hermes/config';
import { isHermesError } from '@hermes/protocol';
import {
  CONFIG_DEFAULTS,
  checkConfig,
  configFilePath,
  envFilePath,
  formatProblem,
  getConfigValue,
  isEnvKey,
  isSecretEnvName,
  loadHermesConfig,
  maskConfigValue,
  maskValue,
  mergeDotenv,
  parseKeyPath,
  parseValueText,
  readConfigSource,
  readEnvFile,
  setConfigValue,
  unsetConfigValue,
  updateEnvFile,
} from '@hermes/runtime';
import type { CommandContext } from '../command-context.js';
import { parseCommandArgs, usageFailure, withUsage } from '../config/command-args.js';
import { maskConfigText, maskedEnvLines, renderValue } from './config/render.js';

const USAGE = `Usage: hermes config <subcommand>

  show                    print config.yaml and .env (secrets masked) and the provider in use
  get <key.path|NAME>     print one setting (a dotted config.yaml path, or a .env variable)
  set <key.path|NAME> <value>
                          change a setting; UPPER_CASE names (OPENAI_API_KEY, …) go to .env
  unset <key.path|NAME>   remove a setting
  path                    print where config.yaml is (--env: where .env is)
  check                   validate config.yaml: each problem with its key path and line

Values are read as YAML: 50 is a number, true a boolean, [a, b] a list. A value starting
with '-' goes after '--': hermes config set <key> -- -value
`;

type Sub = (positionals: readonly string[], ctx: CommandContext) => Promise<number> | number;

async function show(_: readonly string[], ctx: CommandContext): Promise<number> {
  const source = readConfigSource(ctx.hermesHome);
  ctx.stdout.write(`# ${source.path}\n`);
  ctx.stdout.write(
    source.exists
      ? maskConfigText(source.text).replace(/\n?$/, '\n')
      : '# (not created yet: every setting has its default)\n',
  );
  const dotenv = readEnvFile(ctx.hermesHome);
  ctx.stdout.write(`\n# ${envFilePath(ctx.hermesHome)}\n`);
  const lines = maskedEnvLines(dotenv.values);
  ctx.stdout.write(lines.length > 0 ? `${lines.join('\n')}\n` : '# (no variables)\n');
  try {
    const config = await loadHermesConfig(ctx);
    const summary = config.provider
      ? `provider ${config.providerName}, model ${config.model}`
      : `no provider: ${config.providerProblem}`;
    ctx.stdout.write(`\n# in use: ${summary}\n`);
  } catch (error) {
    if (!isHermesError(error)) throw error;
    ctx.stdout.write('\n# in use: config.yaml has errors; run `hermes config check`\n');
  }
  return ExitCode.ok;
}

function getEnv(name: string, ctx: CommandContext): number {
  const value = readEnvFile(ctx.hermesHome).values[name] ?? ctx.env[name];
  if (value === undefined) {
    ctx.stderr.write(`hermes config: ${name} is not set (in .env or the environment)\n`);
    return ExitCode.failure;
  }
  ctx.stdout.write(`${isSecretEnvName(name) ? maskValue(value) : value}\n`);
  return ExitCode.ok;
}

function get([key]: readonly string[], ctx: CommandContext): number {
  if (key === undefined)
    return usageFailure(ctx, 'config', "'get' needs a key, e.g. agent.max_turns");
  if (isEnvKey(key)) return getEnv(key, ctx);
  const path = parseKeyPath(key);
  const value = getConfigValue(ctx.hermesHome, path);
  if (value !== undefined) {
    ctx.stdout.write(`${renderValue(maskConfigValue(value, path))}\n`);
    return ExitCode.ok;
  }
  if (Object.hasOwn(CONFIG_DEFAULTS, key)) {
    ctx.stdout.write(`${renderValue(CONFIG_DEFAULTS[key])}\n`);
    ctx.stderr.write(`hermes config: ${key} is not set; that is its default\n`);
    return ExitCode.ok;
  }
  ctx.stderr.write(
    `hermes config: ${key} is not set in ${readConfigSource(ctx.hermesHome).path}\n`,
  );
  return ExitCode.failure;
}

function set([key, ...words]: readonly string[], ctx: CommandContext): number {
  if (key === undefined || words.length === 0) {
    return usageFailure(
      ctx,
      'config',
      "'set' needs a key and a value, e.g. set agent.max_turns 50",
    );
  }
  const text = words.join(' ');
  if (isEnvKey(key)) {
    updateEnvFile(ctx.hermesHome, { [key]: text });
    const shown = isSecretEnvName(key) ? maskValue(text) : text;
    ctx.stdout.write(`Saved ${key}=${shown} to ${envFilePath(ctx.hermesHome)} (mode 0600)\n`);
    return ExitCode.ok;
  }
  const { env } = mergeDotenv(ctx.hermesHome, ctx.env);
  const value = parseValueText(text);
  setConfigValue(ctx.hermesHome, parseKeyPath(key), value, env);
  ctx.stdout.write(
    `Set ${key} = ${renderValue(value)} in ${readConfigSource(ctx.hermesHome).path}\n`,
  );
  return ExitCode.ok;
}

function unset([key]: readonly string[], ctx: CommandContext): number {
  if (key === undefined) return usageFailure(ctx, 'config', "'unset' needs a key");
  let removed: boolean;
  if (isEnvKey(key)) {
    removed = Object.hasOwn(readEnvFile(ctx.hermesHome).values, key);
    if (removed) updateEnvFile(ctx.hermesHome, { [key]: undefined });
  } else {
    const { env } = mergeDotenv(ctx.hermesHome, ctx.env);
    removed = unsetConfigValue(ctx.hermesHome, parseKeyPath(key), env);
  }
  ctx.stdout.write(removed ? `Removed ${key}\n` : `${key} was not set; nothing changed\n`);
  return ExitCode.ok;
}

/**
 * Validates config.yaml. Stricter than loading it: a key no part of Hermes reads is an error here
 * (a misspelt key silently does nothing), while `chat` only warns about it and goes on.
 */
function check(_: readonly string[], ctx: CommandContext): number {
  const source = readConfigSource(ctx.hermesHome);
  const { env, warnings: envWarnings } = mergeDotenv(ctx.hermesHome, ctx.env);
  const result = checkConfig(source, env, ctx.hermesHome);
  const unknownWarnings = new Set(result.unknownKeys.map((unknown) => unknown.warning));
  const warnings = result.warnings.filter((warning) => !unknownWarnings.has(warning));
  for (const warning of [...envWarnings, ...warnings]) ctx.stdout.write(`warning: ${warning}\n`);
  const problems = [...result.problems, ...result.unknownKeys];
  if (problems.length > 0) {
    ctx.stdout.write(`${source.path} is not valid:\n`);
    for (const problem of problems) ctx.stdout.write(`  - ${formatProblem(problem)}\n`);
    if (result.unknownKeys.length > 0) ctx.stdout.write(unknownKeyAdvice(result.unknownKeys));
    return ExitCode.failure;
  }
  ctx.stdout.write(
    source.exists
      ? `${source.path} is valid.\n`
      : `${source.path} does not exist yet; defaults apply.\n`,
  );
  return ExitCode.ok;
}

/** What to do about keys nothing reads. */
function unknownKeyAdvice(unknownKeys: readonly { readonly path: string }[]): string {
  const unsets = unknownKeys.map((unknown) => `  hermes config unset ${unknown.path}`).join('\n');
  return (
    'No part of Hermes reads the unknown keys above (a misspelling, or a setting of another\n' +
    'version), so they would change nothing. Correct the spelling, or remove them:\n' +
    `${unsets}\n`
  );
}

const SUBCOMMANDS: Readonly<Record<string, Sub>> = { show, get, set, unset, check };

/** Runs `hermes config`; resolves to the exit code. */
export function run(args: readonly string[], ctx: CommandContext): Promise<number> {
  return withUsage(ctx, 'config', async () => {
    const { values, positionals } = parseCommandArgs(args, {
      help: { type: 'boolean', short: 'h' },
      env: { type: 'boolean' },
    });
    const [sub = 'show', ...rest] = positionals;
    if (values.help || sub === 'help') {
      ctx.stdout.write(USAGE);
      return ExitCode.ok;
    }
    if (sub === 'path') {
      ctx.stdout.write(
        `${values.env ? envFilePath(ctx.hermesHome) : configFilePath(ctx.hermesHome)}\n`,
      );
      return ExitCode.ok;
    }
    const handler = SUBCOMMANDS[sub];
    if (!handler) return usageFailure(ctx, 'config', `unknown subcommand '${sub}'`);
    try {
      return await handler(rest, ctx);
    } catch (error) {
      if (!isHermesError(error)) throw error;
      ctx.stderr.write(`hermes config: ${error.message}\n`);
      return ExitCode.failure;
    }
  });
}
