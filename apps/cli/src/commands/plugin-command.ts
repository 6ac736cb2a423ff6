/**
 * `hermes <name>` for a command a plugin registered: reached only when `<name>` is no built-in
 * command, it loads just the enabled plugin whose manifest provides `<name>` and runs it.
 */
import { applyDotenvToProcess, type HermesConfig, loadHermesConfig } from '@hermes/runtime';
import { loadCliPlugins } from '../chat/chat-plugins.js';
import { hostLogger } from '../chat/host-logger.js';
import type { CommandContext } from '../command-context.js';

/** Plugin command names: a lower-case word. */
const COMMAND_WORD = /^[a-z][a-z0-9-]*$/;

/**
 * Runs the plugin command `name` with `args`; resolves its exit code, or undefined when no
 * enabled plugin provides `name` (the caller then reports an unknown command).
 */
export async function runPluginCommand(
  name: string,
  args: readonly string[],
  ctx: CommandContext,
): Promise<number | undefined> {
  if (!COMMAND_WORD.test(name)) return undefined;
  let config: HermesConfig;
  try {
    config = await loadHermesConfig(ctx);
  } catch {
    return undefined; // a broken config.yaml: `hermes config check` is the place to say why
  }
  if ((config.plugins?.enabled.length ?? 0) === 0) return undefined;
  applyDotenvToProcess(config.hermesHome);
  const loaded = await loadCliPlugins(config, {
    cwd: process.cwd(),
    logger: hostLogger(ctx.stderr),
    only: { command: name },
  });
  const entry = loaded.commands.get(name);
  if (!entry) return undefined;
  try {
    return (await entry.command.run(args)) ?? 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.stderr.write(`hermes ${name}: ${message} (from plugin ${entry.plugin})\n`);
    return 1;
  }
}
