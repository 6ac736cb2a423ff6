/**
 * A child process that runs one agent turn whose only tool never finishes, so the test can kill
 * it with SIGKILL mid-tool. Plain node: imports the built package (dist) and its dependencies.
 * argv[2]: JSON {entry, dbPath, baseUrl, sessionId, hermesHome}. Prints "tool-started" when the
 * hanging tool begins.
 */
import { ContextEngine } from '@hermes/context-engine';
import { LocalEnvironment } from '@hermes/environments';
import { OpenAIChatProvider } from '@hermes/providers';
import { openSessionStore } from '@hermes/state';

const config = JSON.parse(process.argv[2]);
const { Agent, sequentialPlan } = await import(config.entry);

class NoCompression extends ContextEngine {
  name = 'none';
  updateFromResponse() {}
  shouldCompress() {
    return false;
  }
  async compress(messages) {
    return {
      messages: [...messages],
      changed: false,
      stats: { messagesBefore: 0, messagesAfter: 0, tokensBefore: 0, tokensAfter: 0 },
    };
  }
}

const toolbox = {
  schemas: () => [
    {
      type: 'function',
      function: {
        name: 'hang',
        description: 'never returns',
        parameters: { type: 'object', properties: {} },
      },
    },
  ],
  names: () => ['hang'],
  plan: sequentialPlan,
  dispatch: () => {
    process.stdout.write('tool-started\n');
    return new Promise(() => {});
  },
};

const agent = new Agent({
  provider: new OpenAIChatProvider({ apiKey: 'k', baseUrl: config.baseUrl }),
  model: 'scripted-model',
  tools: toolbox,
  sessionStore: openSessionStore({ path: config.dbPath }),
  contextEngine: new NoCompression(),
  environment: new LocalEnvironment({ loginShellEnv: false }),
  sessionId: config.sessionId,
  hermesHome: config.hermesHome,
  cwd: config.hermesHome,
});
await agent.runConversation('start the long job');
