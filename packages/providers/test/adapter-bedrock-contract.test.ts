/**
 * The ModelProvider contract suite, run against the Bedrock Converse adapter over real HTTP:
 * the official AWS SDK client signs, frames and decodes, the testkit answers in Bedrock's wire
 * format (binary event stream for ConverseStream).
 */
import { script } from '@hermes/testkit';
import { afterEach } from 'vitest';
import { describeModelProviderContract } from '../src/testing.js';
import { closeBedrockRigs, FAKE_CREDENTIALS, startBedrockRig } from './support/bedrock-rig.js';
import { ABORT_DEADLINE_BACKSTOP_MS } from './support/patience.js';

afterEach(closeBedrockRigs);

describeModelProviderContract(
  'bedrock-converse over the scripted server',
  async ({ script: contract }) => {
    // Every check makes at most a few calls; each one is answered with the scripted text.
    const turns = script().text(contract.text).times(5);
    return (await startBedrockRig(turns, { credentials: FAKE_CREDENTIALS })).provider;
  },
  { abortDeadlineMs: ABORT_DEADLINE_BACKSTOP_MS },
);

describeModelProviderContract(
  'bedrock-converse, one-character chunks and reasoning before the text',
  async ({ script: contract }) => {
    const turns = script()
      .reasoning('First, recall the sentence.')
      .text(contract.text)
      .chunking({ textChunkSize: 1 })
      .times(5);
    return (await startBedrockRig(turns, { credentials: FAKE_CREDENTIALS })).provider;
  },
  {
    script: { text: 'Ünïcödé → 你好, with "quotes" and\nnewlines.' },
    model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
    abortDeadlineMs: ABORT_DEADLINE_BACKSTOP_MS,
  },
);
