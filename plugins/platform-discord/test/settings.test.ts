/** `platforms.discord` settings and the plugin's registration. */
import type { CreatePlatformAdapter, PluginContext } from '@hermes/plugin-sdk';
import { describe, expect, it } from 'vitest';
import plugin, { DiscordAdapter, resolveDiscordSettings } from '../src/index.js';

describe('platforms.discord settings', () => {
  it('reads the token from DISCORD_BOT_TOKEN when the config has none', () => {
    const settings = resolveDiscordSettings(
      { allowed_channels: ['1', 2] },
      { DISCORD_BOT_TOKEN: 'env-token' },
    );
    expect(settings).toMatchObject({ token: 'env-token', allowedChannels: ['1', '2'] });
    expect(settings.apiUrl).toBe('https://discord.com/api');
  });

  it('auto_thread is off and max_attachment_bytes is 25 MB unless set; bad values are refused', () => {
    expect(resolveDiscordSettings({ token: 't' }, {})).toMatchObject({
      autoThread: false,
      maxAttachmentBytes: 25 * 1024 * 1024,
    });
    expect(
      resolveDiscordSettings({ token: 't', auto_thread: true, max_attachment_bytes: 10 }, {}),
    ).toMatchObject({ autoThread: true, maxAttachmentBytes: 10 });
    expect(() => resolveDiscordSettings({ token: 't', auto_thread: 'yes' }, {})).toThrow(
      /auto_thread/,
    );
    expect(() => resolveDiscordSettings({ token: 't', max_attachment_bytes: -1 }, {})).toThrow(
      /max_attachment_bytes/,
    );
  });

  it('refuses a missing token, and a bad setting without echoing the token', () => {
    expect(() => resolveDiscordSettings({}, {})).toThrow(/token is required/);
    const secret = 'very-secret-token-value';
    let message = '';
    try {
      resolveDiscordSettings({ token: secret, api_url: 'ftp://nope' }, {});
    } catch (error) {
      message = String((error as Error).message);
    }
    expect(message).toMatch(/api_url/);
    expect(message).not.toContain(secret);
  });

  it('the plugin registers the discord platform, whose factory builds the adapter', async () => {
    const platforms = new Map<string, CreatePlatformAdapter>();
    const ctx = {
      name: plugin.manifest.name,
      registerPlatform: (name: string, create: CreatePlatformAdapter) =>
        platforms.set(name, create),
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      storage: { dir: '/plugin-data', path: (relative: string) => `/plugin-data/${relative}` },
    } as unknown as PluginContext;
    await plugin.register(ctx);
    const adapter = await platforms.get('discord')?.({ token: 't' });
    expect(adapter).toBeInstanceOf(DiscordAdapter);
    expect(adapter?.capabilities().maxMessageLength).toBe(2_000);
  });
});
