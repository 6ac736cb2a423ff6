/**
 * `hermes doctor [--offline]`: checks the installation — Node.js version, the data home,
 * config.yaml (each problem with its key path and line), `.env`, the session database's
 * integrity, the provider and its key, (unless `--offline`) that the provider answers, and that
 * every enabled plugin loads.
 * Every failure comes with its fix; the exit code is 1 when anything failed.
 */
import { ExitCode } from '@hermes/config';
import { isHermesError } from '@hermes/protocol';
import { loadHermesConfig } from '@hermes/runtime';
import type { CommandContext } from '../command-context.js';
import { intOption, parseCommandArgs, usageFailure, withUsage } from '../config/command-args.js';
import { type CheckResult, renderCheck } from './doctor/check-result.js';
import {
  checkConfigFile,
  checkDatabase,
  checkEnvFile,
  checkHome,
  checkNode,
  doctorEnv,
} from './doctor/local-checks.js';
import { checkMcpServers } from './doctor/mcp-checks.js';
import { checkPlugins } from './doctor/plugin-checks.js';
import {
  checkFallback,
  checkProvider,
  checkReachable,
  DOCTOR_TIMEOUT_MS,
} from './doctor/provider-checks.js';
import { checkStorage } from './doctor/storage-checks.js';

const USAGE = `Usage: hermes doctor [--offline] [--timeout S] [--json]

Checks Node.js, HERMES_HOME, config.yaml, .env, state.db, the provider and its key,
whether the provider answers, and that every enabled plugin loads. Each problem is printed with its fix; exit 1 when any failed.

  --offline     skip the network check
  --timeout S   seconds the network check may take (default 5)
  --json        print the results as JSON
`;

async function runChecks(
  ctx: CommandContext,
  offline: boolean,
  timeoutMs: number,
): Promise<CheckResult[]> {
  const env = doctorEnv(ctx.hermesHome, ctx.env);
  const results: CheckResult[] = [
    checkNode(),
    checkHome(ctx.hermesHome),
    checkConfigFile(ctx.hermesHome, env),
    checkEnvFile(ctx.hermesHome),
    await checkDatabase(ctx.hermesHome),
  ];
  try {
    const config = await loadHermesConfig(ctx);
    const fallback = checkFallback(config);
    results.push(
      checkProvider(config),
      ...(fallback ? [fallback] : []),
      await checkReachable(config, offline, timeoutMs),
      await checkPlugins(config, process.cwd()),
      await checkMcpServers(config),
    );
    const storage = await checkStorage(config);
    if (storage) results.push(storage);
  } catch (error) {
    if (!isHermesError(error)) throw error;
    const detail = 'not checked: config.yaml has errors (see above)';
    results.push(
      { name: 'provider', status: 'skip', detail },
      { name: 'reachable', status: 'skip', detail },
      { name: 'plugins', status: 'skip', detail },
    );
  }
  return results;
}

/** Runs `hermes doctor`; resolves to the exit code. */
export function run(args: readonly string[], ctx: CommandContext): Promise<number> {
  return withUsage(ctx, 'doctor', async () => {
    const { values, positionals } = parseCommandArgs(args, {
      help: { type: 'boolean', short: 'h' },
      offline: { type: 'boolean' },
      timeout: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (values.help) {
      ctx.stdout.write(USAGE);
      return ExitCode.ok;
    }
    if (positionals.length > 0)
      return usageFailure(ctx, 'doctor', `unexpected argument '${positionals[0]}'`);
    const timeoutS = intOption(values, 'timeout');
    const timeoutMs = timeoutS === undefined ? DOCTOR_TIMEOUT_MS : timeoutS * 1000;
    const results = await runChecks(ctx, values.offline === true, timeoutMs);
    const failed = results.filter((r) => r.status === 'fail').length;
    if (values.json)
      ctx.stdout.write(`${JSON.stringify({ ok: failed === 0, checks: results }, null, 2)}\n`);
    else {
      ctx.stdout.write(
        `hermes doctor — ${ctx.hermesHome}${ctx.profile ? ` (profile ${ctx.profile})` : ''}\n`,
      );
      ctx.stdout.write(`${results.map(renderCheck).join('\n')}\n`);
      const warned = results.filter((r) => r.status === 'warn').length;
      ctx.stdout.write(
        failed === 0
          ? `All checks passed${warned ? ` (${warned} warning${warned === 1 ? '' : 's'})` : ''}.\n`
          : `${failed} check${failed === 1 ? '' : 's'} failed.\n`,
      );
    }
    return failed === 0 ? ExitCode.ok : ExitCode.failure;
  });
}
