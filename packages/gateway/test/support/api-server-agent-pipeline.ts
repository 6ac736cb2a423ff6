/**
 * A minimal stand-in for the gateway's pipeline that runs a real Agent (`createAgent` from
 * `@hermes/loop`) per message against a `@hermes/testkit` scripted model, forwarding the agent's
 * events to the message's sink and finishing with its result — what the real pipeline does
 * minus authorization, routing and caching. The session to continue and the history to seed come
 * from the InboundContext, as the real pipeline takes them.
 */
import { createAgent } from '@hermes/loop';
import { z } from 'zod';
import type { InboundHandler } from '../../src/messages.js';

/** A tool the scripted model can call: it returns the weather for a city. */
export const weatherTool = {
  name: 'get_weather',
  toolset: 'hermes-cli',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  handler: async ({ city }: { city: string }) => `Sunny and 21°C in ${city}.`,
};

/** An InboundHandler running one real agent turn per message. */
export function agentPipeline(modelBaseUrl: string): InboundHandler {
  return async (message, context) => {
    const sink = context?.sink;
    const home = process.env.HERMES_HOME ?? '';
    const { agent, close } = createAgent(
      {
        provider: {
          provider: 'openai',
          model: 'scripted-model',
          apiKey: 'k',
          baseUrl: modelBaseUrl,
        },
        hermesHome: home,
        cwd: home,
        platform: message.platform,
        // A title request would take the next scripted answer; these tests script conversations.
        learning: { titles: false },
        ...(context?.sessionId ? { sessionId: context.sessionId } : {}),
      },
      { tools: [weatherTool as never] },
    );
    const off = agent.on('event', (event) => sink?.event(event));
    try {
      const result = await agent.runConversation(message.text, {
        ...(context?.history ? { conversationHistory: context.history } : {}),
        ...(context?.signal ? { signal: context.signal } : {}),
      });
      sink?.finish({
        sessionId: result.sessionId,
        text: result.finalResponse,
        exitReason: result.exitReason,
        failed: result.failed,
        usage: result.usage,
        model: agent.model,
      });
    } catch (error) {
      sink?.fail({ code: 'test.agent_failed', message: String(error) });
    } finally {
      off();
      await close();
    }
  };
}
