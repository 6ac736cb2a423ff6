/**
 * `hermes setup`: first-run setup. Asks for the provider, base URL, model and API key (or takes
 * them from `--provider --model --api-key --base-url`), saves the settings to config.yaml and
 * the key to `.env` (mode 0600), then tests the connection (`--no-test` skips it).
 */
import { mkdirSync } from 'node:fs';
import { ExitCode, UsageError } from '@hermes/config';
import { isHermesError } from '@hermes/protocol';
import {
  configFilePath,
  DEFAULT_MODELS,
  envFilePath,
  getConfigValue,
  loadHermesConfig,
  mergeDotenv,
  setConfigValue,
  unsetConfigValue,
  updateEnvFile,
} from '@hermes/runtime';
import type { CommandContext } from '../command-context.js';
import { intOption, parseCommandArgs, stringOption, withUsage } from '../config/command-args.js';
import { testConnectivity } from './setup/connectivity.js';
import { createPrompter } from './setup/prompter.js';
import {
  incomplete,
  keyVariableOf,
  runWizard,
  type SetupAnswers,
  type SetupCurrent,
} from './setup/wizard.js';

const USAGE = `Usage: hermes setup [--provider P] [--model M] [--api-key K] [--base-url URL] [--no-test]

Interactive without --provider: asks for the provider, base URL, model and API key.
With --provider it asks nothing: missing values keep their current setting or default.

  --provider P     openrouter, anthropic, openai, custom (any OpenAI-compatible server), …
  --model M        the model name
  --api-key K      saved to HERMES_HOME/.env (mode 0600), never to config.yaml
  --base-url URL   the server's endpoint, e.g. http://127.0.0.1:8080/v1 for llama.cpp
  --no-test        skip the connectivity test
  --timeout S      seconds the connectivity test may take (default 10)
`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  provider: { type: 'string' },
  model: { type: 'string' },
  'api-key': { type: 'string' },
  'base-url': { type: 'string' },
  'no-test': { type: 'boolean' },
  timeout: { type: 'string' },
} as const;

function currentSettings(ctx: CommandContext): SetupCurrent {
  const { env } = mergeDotenv(ctx.hermesHome, ctx.env);
  const text = (path: string[]) => {
    const value = getConfigValue(ctx.hermesHome, path);
    return typeof value === 'string' ? value : undefined;
  };
  const provider = text(['model', 'provider']);
  const model = text(['model', 'default']);
  const baseUrl = text(['model', 'base_url']);
  return {
    env,
    ...(provider ? { provider } : {}),
    ...(model ? { model } : {}),
    ...(baseUrl ? { baseUrl } : {}),
  };
}

/** Writes the answers; returns the `.env` variable the key went to, if one was given. */
function save(
  ctx: CommandContext,
  answers: SetupAnswers,
  current: SetupCurrent,
): string | undefined {
  mkdirSync(ctx.hermesHome, { recursive: true });
  const home = ctx.hermesHome;
  const env = current.env;
  const sameProvider = current.provider === answers.provider;
  const customVariable = sameProvider ? getConfigValue(home, ['model', 'api_key_env']) : undefined;
  setConfigValue(home, ['model', 'provider'], answers.provider, env);
  setConfigValue(home, ['model', 'default'], answers.model, env);
  if (answers.baseUrl) setConfigValue(home, ['model', 'base_url'], answers.baseUrl, env);
  else unsetConfigValue(home, ['model', 'base_url'], env);
  if (!sameProvider) unsetConfigValue(home, ['model', 'api_key_env'], env);
  if (answers.apiKey === undefined) return undefined;
  const variable =
    typeof customVariable === 'string' ? customVariable : keyVariableOf(answers.provider);
  updateEnvFile(home, { [variable]: answers.apiKey });
  return variable;
}

function nonInteractive(
  values: Readonly<Record<string, string | boolean>>,
  current: SetupCurrent,
): SetupAnswers {
  const provider = stringOption(values, 'provider') as string;
  const same = current.provider === provider;
  const model =
    stringOption(values, 'model') ?? (same ? current.model : undefined) ?? DEFAULT_MODELS[provider];
  if (model === undefined)
    throw incomplete(`there is no default model for ${provider}; pass --model`);
  return {
    provider,
    model,
    baseUrl: stringOption(values, 'base-url') ?? (same ? current.baseUrl : undefined),
    apiKey: stringOption(values, 'api-key'),
  };
}

async function answersFor(
  values: Readonly<Record<string, string | boolean>>,
  current: SetupCurrent,
  ctx: CommandContext,
) {
  if (stringOption(values, 'provider') !== undefined) return nonInteractive(values, current);
  const prompter = createPrompter(ctx.stdin ?? process.stdin, ctx.stdout);
  try {
    const model = stringOption(values, 'model');
    const baseUrl = stringOption(values, 'base-url');
    const apiKey = stringOption(values, 'api-key');
    const given: Partial<SetupAnswers> = {
      ...(model ? { model } : {}),
      ...(baseUrl ? { baseUrl } : {}),
      ...(apiKey ? { apiKey } : {}),
    };
    return await runWizard(prompter, current, given);
  } finally {
    prompter.close();
  }
}

async function connectivity(ctx: CommandContext, timeoutS: number): Promise<number> {
  const config = await loadHermesConfig(ctx);
  if (!config.provider) {
    ctx.stdout.write(`✗ ${config.providerProblem}\n`);
    return ExitCode.failure;
  }
  ctx.stdout.write('Testing the connection…\n');
  const result = await testConnectivity(config.provider, config.env ?? ctx.env, {
    timeoutMs: timeoutS * 1000,
  });
  ctx.stdout.write(`${result.ok ? '✓' : '✗'} ${result.line}\n`);
  if (!result.ok) {
    ctx.stdout.write(
      'The settings were saved; fix the problem and run `hermes setup` again (or `hermes doctor`).\n',
    );
    return ExitCode.failure;
  }
  return ExitCode.ok;
}

/** Runs `hermes setup`; resolves to the exit code. */
export function run(args: readonly string[], ctx: CommandContext): Promise<number> {
  return withUsage(ctx, 'setup', async () => {
    const { values, positionals } = parseCommandArgs(args, OPTIONS);
    if (values.help) {
      ctx.stdout.write(USAGE);
      return ExitCode.ok;
    }
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const timeoutS = intOption(values, 'timeout') ?? 10;
    try {
      const current = currentSettings(ctx);
      const answers = await answersFor(values, current, ctx);
      const variable = save(ctx, answers, current);
      ctx.stdout.write(
        `Saved ${answers.provider} / ${answers.model}${answers.baseUrl ? ` at ${answers.baseUrl}` : ''} to ${configFilePath(ctx.hermesHome)}\n`,
      );
      if (variable)
        ctx.stdout.write(`Saved ${variable} to ${envFilePath(ctx.hermesHome)} (mode 0600)\n`);
      const code = values['no-test'] ? ExitCode.ok : await connectivity(ctx, timeoutS);
      if (code === ExitCode.ok) ctx.stdout.write('Ready. Start a conversation with: hermes chat\n');
      return code;
    } catch (error) {
      if (!isHermesError(error)) throw error;
      ctx.stderr.write(`hermes setup: ${error.message}\n`);
      return ExitCode.failure;
    }
  });
}
