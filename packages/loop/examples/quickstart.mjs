// A tool loop in your own Node app with @hermes/loop (run after `npx tsup`; see the README).
import { createAgent } from '@hermes/loop';
import { z } from 'zod';

const weather = {
  name: 'get_weather',
  toolset: 'hermes-cli',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  handler: async ({ city }) => `Sunny and 21°C in ${city}.`,
};
const { agent, close } = createAgent(
  {
    provider: {
      provider: 'openai',
      model: 'gpt-4.1-mini',
      apiKeyEnv: 'OPENAI_API_KEY',
      baseUrl: process.env.OPENAI_BASE_URL,
    },
  },
  { tools: [weather] },
);
console.log(await agent.chat('What is the weather in Paris?'));
await close();
