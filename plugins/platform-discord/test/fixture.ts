/** An adapter wired to a fresh fake Discord, for the tests. */
import { join } from 'node:path';
import { DiscordAdapter } from '../src/discord-adapter.js';
import { resolveDiscordSettings } from '../src/settings.js';
import { FakeDiscord } from './fake-discord.js';

/** Where the fixture's adapter saves attachments: inside the test's own HERMES_HOME. */
export function attachmentsDir(): string {
  return join(process.env.HERMES_HOME as string, 'discord-attachments');
}

/** A fake, and an unconnected adapter pointed at it. */
export async function discordFixture(settings: Record<string, unknown> = {}) {
  const fake = await FakeDiscord.start();
  const adapter = new DiscordAdapter(
    resolveDiscordSettings({
      token: fake.token,
      api_url: fake.apiUrl,
      rest_retries: 0,
      ...settings,
    }),
    undefined,
    attachmentsDir(),
  );
  return { fake, adapter };
}
