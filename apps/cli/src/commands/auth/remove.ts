/** `hermes auth remove <provider> <label|index>` and `hermes auth reset [provider]`. */
import { ExitCode } from '@hermes/config';
import {
  authFilePath,
  envFilePath,
  type KeyReportLine,
  readEnvFile,
  removeAuthKey,
  resetPoolHealth,
} from '@hermes/runtime';
import type { CommandContext } from '../../command-context.js';
import { keyReports, poolStateFile, readKeySources } from './key-sources.js';

/** Why `remove` will not touch a key from the environment or config, and what to do instead. */
function elsewhere(provider: string, key: KeyReportLine, ctx: CommandContext): string {
  const what = `Key ${key.index} of ${provider} (${key.label}, ${key.masked})`;
  if (key.source.startsWith('env:')) {
    const variable = key.source.slice('env:'.length);
    const inDotenv =
      ctx.env[variable] === undefined && readEnvFile(ctx.hermesHome).values[variable] !== undefined;
    return inDotenv
      ? `${what} comes from ${variable} in ${envFilePath(ctx.hermesHome)}, not auth.json: ` +
          `remove it with \`hermes config unset ${variable}\`.`
      : `${what} comes from the environment variable ${variable}, not auth.json: unset it ` +
          'where it is set (your shell or service).';
  }
  return `${what} comes from ${key.source}, not auth.json: remove it there.`;
}

/** Runs `hermes auth remove`. */
export function removeKey(provider: string, which: string, ctx: CommandContext): number {
  const report = keyReports(ctx, readKeySources(ctx), provider)[0];
  const keys = report?.keys ?? [];
  const byIndex = /^[0-9]+$/.test(which);
  const target = byIndex
    ? keys.find((key) => key.index === Number(which))
    : keys.find((key) => key.source === 'auth.json' && key.label === which);
  const shown = target ?? (byIndex ? undefined : keys.find((key) => key.label === which));
  if (shown === undefined) {
    ctx.stderr.write(
      `hermes auth: ${provider} has no key ${byIndex ? `number ${which}` : `labelled "${which}"`}; ` +
        `see \`hermes auth list ${provider}\`\n`,
    );
    return ExitCode.failure;
  }
  if (shown.source !== 'auth.json') {
    ctx.stderr.write(`hermes auth: ${elsewhere(provider, shown, ctx)}\n`);
    return ExitCode.failure;
  }
  removeAuthKey(ctx.hermesHome, provider, shown.label);
  ctx.stdout.write(
    `Removed "${shown.label}" (${shown.masked}) of ${provider} from ${authFilePath(ctx.hermesHome)}.\n`,
  );
  return ExitCode.ok;
}

/** Runs `hermes auth reset`. */
export function resetKeys(provider: string | undefined, ctx: CommandContext): number {
  const result = resetPoolHealth(poolStateFile(ctx), provider);
  const scope = provider ?? 'every provider';
  ctx.stdout.write(
    result.revived === 0
      ? `No key of ${scope} was cooling down or dead; nothing changed.\n`
      : `Cleared ${result.revived} cooldown${result.revived === 1 ? '' : 's'} or dead mark` +
          `${result.revived === 1 ? '' : 's'} for ${scope}; the keys are kept.\n`,
  );
  return ExitCode.ok;
}
