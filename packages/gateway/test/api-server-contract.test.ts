/**
 * The PlatformAdapter contract for the API server. Its test double delivers a message the way an
 * HTTP client does: a chat completion whose session header is the chat and whose `user` field is
 * the user. The suite's handler never answers, so those requests stay open until disconnect.
 */
import { ApiServerAdapter } from '../src/adapters/api-server/api-server-adapter.js';
import { resolveApiServerSettings } from '../src/adapters/api-server/api-server-settings.js';
import { describePlatformAdapterContract } from '../src/testing.js';
import { TEST_KEY } from './support/api-server-harness.js';

describePlatformAdapterContract('api_server', () => {
  const adapter = new ApiServerAdapter({
    settings: resolveApiServerSettings({ key: TEST_KEY, port: 0 }),
  });
  return {
    adapter,
    async simulateInbound(message) {
      const port = adapter.listening?.port;
      if (port === undefined) throw new Error('the API server is not listening');
      // Not awaited to the end: the answer comes only when a pipeline finishes the turn.
      void fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TEST_KEY}`,
          'content-type': 'application/json',
          'x-hermes-session-id': message.chatId,
        },
        body: JSON.stringify({
          model: 'hermes-agent',
          user: message.userId,
          messages: [{ role: 'user', content: message.text }],
        }),
      })
        .then((response) => response.text())
        .catch(() => undefined);
    },
  };
});
