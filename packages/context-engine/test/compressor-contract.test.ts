import { ContextCompressor } from '../src/index.js';
import { describeContextEngineContract } from '../src/testing.js';
import { scriptedSummarizer } from './support/conversations.js';

describeContextEngineContract(
  'ContextCompressor with a scripted summarizer',
  ({ contextLength, model }) =>
    new ContextCompressor({ contextLength, model, summarizer: scriptedSummarizer() }),
);

describeContextEngineContract(
  'ContextCompressor without a summarizer (fallback summaries), small tail',
  ({ contextLength }) => new ContextCompressor({ contextLength, tailTokens: 300 }),
);

describeContextEngineContract(
  'ContextCompressor on a small window',
  ({ contextLength }) =>
    new ContextCompressor({ contextLength, summarizer: scriptedSummarizer(), tailTokens: 200 }),
  { contextLength: 8_000 },
);
