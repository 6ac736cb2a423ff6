/** The plugin entry: registers `slack` and builds the adapter from `platforms.slack`. */
import { type CreatePlatformAdapter, isHermesPlugin, type PluginContext } from '@hermes/plugin-sdk';
import { describe, expect, it } from 'vitest';
import plugin, { SlackAdapter } from '../src/index.ts';

/** Records registrations; every other member is unused by a platform plugin. */
function recordingContext(platforms: Map<string, CreatePlatformAdapter>): PluginContext {
  const unused = () => {
    throw new Error('not used by this plugin');
  };
  const quiet = () => {};
  return {
    name: '@hermes/plugin-platform-slack',
    registerTool: unused,
    registerHook: unused,
    registerPlatform: (name, create) => platforms.set(name, create),
    registerMemoryProvider: unused,
    registerContextEngine: unused,
    registerCommand: unused,
    logger: { debug: quiet, info: quiet, warn: quiet, error: quiet },
    storage: { dir: '/plugin-data', path: (relative) => `/plugin-data/${relative}` },
    config: {},
  };
}

describe('the platform-slack plugin', () => {
  it('registers slack, whose adapter is built from the platform section', async () => {
    expect(isHermesPlugin(plugin)).toBe(true);
    const platforms = new Map<string, CreatePlatformAdapter>();
    await plugin.register(recordingContext(platforms));
    expect([...platforms.keys()]).toEqual(['slack']);
    const adapter = await platforms.get('slack')?.({ bot_token: 'xoxb-a', app_token: 'xapp-b' });
    expect(adapter).toBeInstanceOf(SlackAdapter);
    expect(adapter?.platform).toBe('slack');
    expect(adapter?.capabilities()).toMatchObject({ maxMessageLength: 4_000, canEdit: true });
  });
});
