/**
 * `hermes plugins enable|disable <name>`: the plugin's name goes into one of `plugins.enabled` /
 * `plugins.disabled` and out of the other. Idempotent; says what changed.
 */
import { configFilePath, mergeDotenv } from '@hermes/runtime';
import type { CommandContext } from '../../command-context.js';
import type { FoundPlugin } from './find-plugin.js';
import { editPluginLists } from './plugin-lists.js';

/** Where a strategy plugin is selected, by kind (it is active only when selected). */
const SELECTED_BY: Readonly<Record<string, string>> = {
  memory: 'memory.provider',
  'context-engine': 'context.engine',
};

/** A reminder that a memory provider or context engine must also be selected. */
function selectionHint(found: FoundPlugin): string {
  const manifest = found.plugin?.manifest;
  const key = manifest ? SELECTED_BY[manifest.kind] : undefined;
  if (!manifest || key === undefined) return '';
  const offered =
    (manifest.kind === 'memory'
      ? manifest.provides.memoryProviders
      : manifest.provides.contextEngines) ?? [];
  const example = offered[0] ?? '<name>';
  return `It is a ${manifest.kind} plugin: it is used once selected, e.g. hermes config set ${key} ${example}\n`;
}

/** Enables (`on`) or disables `found` in config.yaml; returns the exit code. */
export function switchPlugin(found: FoundPlugin, on: boolean, ctx: CommandContext): number {
  const { env } = mergeDotenv(ctx.hermesHome, ctx.env);
  const edit = editPluginLists(ctx.hermesHome, env, found, {
    add: on ? 'enabled' : 'disabled',
    remove: [on ? 'disabled' : 'enabled'],
  });
  const state = on ? 'enabled' : 'disabled';
  if (edit.changes.length === 0) {
    ctx.stdout.write(`${found.name} is already ${state}; nothing changed.\n`);
    return 0;
  }
  const where = configFilePath(ctx.hermesHome);
  ctx.stdout.write(
    `${on ? 'Enabled' : 'Disabled'} ${found.name} (${where}: ${edit.changes.join(', ')}).\n` +
      `This takes effect the next time hermes or hermes-gateway starts.\n`,
  );
  if (on && found.problem) {
    ctx.stdout.write(`Note: it cannot load as it is: ${found.problem.message}\n`);
  }
  if (on) ctx.stdout.write(selectionHint(found));
  return 0;
}
