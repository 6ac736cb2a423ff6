import { FallbackProvider } from '../src/fallback/index.js';
import { describeModelProviderContract } from '../src/testing.js';
import { ScriptedProvider } from './support/scripted-provider.js';

// A fallback wrapper must itself honour the seam: streaming order, abort, close, defaults.
describeModelProviderContract('FallbackProvider over a healthy primary', ({ script }) => {
  return new FallbackProvider({
    primary: new ScriptedProvider(script),
    chain: [{ provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5' }],
    createProvider: () => {
      throw new Error('a healthy primary never needs a fallback');
    },
  });
});
