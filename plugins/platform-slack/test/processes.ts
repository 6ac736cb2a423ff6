/**
 * Real processes for the end-to-end test: the built `hermes-gateway` with this plugin installed
 * in the test's HERMES_HOME, and the testkit's scripted model (`hermes-testkit serve`). Both are
 * started by file path, so this plugin imports no workspace package but the SDK.
 */
import { existsSync } from 'node:fs';
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
export const BUILD_COMMAND =
  'npx turbo run build --filter=@hermes/gateway-server --filter=@hermes/testkit --filter=@hermes/plugin-platform-slack';

/** Fails with the command that builds what is missing (never skips). */
export function requireBuild(): void {
  for (const file of [GATEWAY_BIN, TESTKIT_BIN, PLUGIN_DIST]) {
    if (!existsSync(file)) throw new Error(`${file} does not exist: build first: ${BUILD_COMMAND}`);
  }
}

/** Starts `hermes-testkit serve` with `turns`; resolves its base URL (`…/v1`) and the child. */
export function startModel(home: string, turns: readonly object[]) {
  return startScriptedModelProcess(TESTKIT_BIN, home, turns);
}

/** Installs this plugin (its built entry) as `HERMES_HOME/plugins/platform-slack`. */
export function installPlugin(home: string): void {
  installPluginEntry(home, {
    folder: 'platform-slack',
    packageName: '@hermes/plugin-platform-slack',
    entry: PLUGIN_DIST,
    hermes: { kind: 'platform', provides: { platforms: ['slack'] } },
  });
}

/** Starts `hermes-gateway run` on `home` and resolves once it is ready. */
export async function startGateway(home: string): Promise<NodeProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HERMES_HOME: home,
    OPENAI_API_KEY: 'sk-test-provider-key',
  };
  delete env.SLACK_BOT_TOKEN;
  delete env.SLACK_APP_TOKEN;
  const child = new NodeProcess([GATEWAY_BIN, 'run'], env);
  await child.waitFor(/gateway ready/);
  return child;
}
