/** `hermes auth add <provider> [--label L]`: asks for a key without echo and stores it in auth.json. */
import { ExitCode } from '@hermes/config';
import { addAuthKey, authFilePath } from '@hermes/runtime';
import type { CommandContext } from '../../command-context.js';
import { createPrompter } from '../setup/prompter.js';

/**
 * Reads one key: on a terminal without echo, from a pipe (scripts, tests) as its first line. The
 * question goes to stderr, so stdout carries only the outcome. The key is never printed.
 */
async function readKey(provider: string, ctx: CommandContext): Promise<string | undefined> {
  const prompter = createPrompter(ctx.stdin ?? process.stdin, ctx.stderr);
  try {
    return await prompter.askSecret(`API key for ${provider} (not shown): `);
  } finally {
    prompter.close();
  }
}

/** Runs `hermes auth add`. @throws HermesError `auth.key_rejected` / `auth.invalid_file`. */
export async function addKey(
  provider: string,
  label: string | undefined,
  ctx: CommandContext,
): Promise<number> {
  const key = await readKey(provider, ctx);
  if (key === undefined || key.trim() === '') {
    ctx.stderr.write('hermes auth: no key was given; nothing was stored\n');
    return ExitCode.failure;
  }
  const added = addAuthKey(ctx.hermesHome, provider, key, label);
  ctx.stdout.write(
    `Stored the key for ${added.provider} as "${added.label}" in ${authFilePath(ctx.hermesHome)} ` +
      `(mode 0600; ${added.count} stored key${added.count === 1 ? '' : 's'} for ${added.provider}).\n`,
  );
  return ExitCode.ok;
}
