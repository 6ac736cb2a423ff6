/**
 * Real processes for the end-to-end test: the built `hermes-gateway` with this plugin installed
 * in the test's HERMES_HOME, and the testkit's scripted model (`hermes-testkit serve`). Both are
 * started by file path, so this plugin imports no workspace package but the SDK. (The pattern of
 * plugins/platform-slack/test/processes.ts.)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  installPluginEntry,
  NodeProcess,
  startScriptedModelProcess,
} from '@hermes/plugin-sdk/testing';

const at = (path: string) => fileURLToPath(new URL(path, import.meta.url));
export const GATEWAY_BIN = at('../../../apps/gateway/dist/bin.js');
export const TESTKIT_BIN = at('../../../packages/testkit/dist/bin.js');
export const PLUGIN_DIST = at('../dist/index.js');
const PLUGIN_ROOT = at('..');
export const BUILD_COMMAND =
  'npx turbo run build --filter=@hermes/gateway-server --filter=@hermes/testkit --filter=@hermes/plugin-platform-discord';

/**
 * Fails with the command that builds what is missing (never skips). This plugin's own `dist` is
 * rebuilt when a source file is newer, so the process never runs stale plugin code.
 */
export function requireBuild(): void {
  for (const file of [GATEWAY_BIN, TESTKIT_BIN]) {
    if (!existsSync(file)) throw new Error(`${file} does not exist: build first: ${BUILD_COMMAND}`);
  }
  const src = join(PLUGIN_ROOT, 'src');
  const newest = Math.max(...readdirSync(src).map((f) => statSync(join(src, f)).mtimeMs));
  if (!existsSync(PLUGIN_DIST) || statSync(PLUGIN_DIST).mtimeMs < newest) {
    execFileSync('npx', ['tsup'], { cwd: PLUGIN_ROOT, stdio: 'ignore' });
  }
}

/** Starts `hermes-testkit serve` with `turns`; resolves its base URL (`…/v1`) and the child. */
export function startModel(home: string, turns: readonly object[]) {
  return startScriptedModelProcess(TESTKIT_BIN, home, turns);
}

/** Installs this plugin (its built entry) as `HERMES_HOME/plugins/platform-discord`. */
export function installPlugin(home: string): void {
  installPluginEntry(home, {
    folder: 'platform-discord',
    packageName: '@hermes/plugin-platform-discord',
    entry: PLUGIN_DIST,
    hermes: { kind: 'platform', provides: { platforms: ['discord'] } },
  });
}

/** Starts `hermes-gateway run` on `home` and resolves once it is ready. */
export async function startGateway(home: string): Promise<NodeProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HERMES_HOME: home,
    OPENAI_API_KEY: 'sk-test-provider-key',
  };
  delete env.DISCORD_BOT_TOKEN;
  const child = new NodeProcess([GATEWAY_BIN, 'run'], env);
  await child.waitFor(/gateway ready/);
  return child;
}
