/** The ModelProvider contract suite, run against the Gemini adapter over real HTTP (its REST wire). */
import { script } from '@hermes/testkit';
import { afterEach } from 'vitest';
import { describeModelProviderContract } from '../src/testing.js';
import { closeRigs, startRig } from './support/gemini-rig.js';
import { ABORT_DEADLINE_BACKSTOP_MS } from './support/patience.js';

afterEach(closeRigs);

describeModelProviderContract(
  'gemini over the scripted server',
  async ({ script: contract }) => {
    // Every check makes at most a few calls; each one is answered with the scripted text.
    const { provider } = await startRig(script().text(contract.text).times(5));
    return provider;
  },
  { abortDeadlineMs: ABORT_DEADLINE_BACKSTOP_MS },
);

describeModelProviderContract(
  'gemini, one-character chunks and thoughts before the text',
  async ({ script: contract }) => {
    const turns = script()
      .reasoning('First, recall the sentence.')
      .text(contract.text)
      .chunking({ textChunkSize: 1 })
      .times(5);
    return (await startRig(turns)).provider;
  },
  {
    script: { text: 'Ünïcödé → 你好, with "quotes" and\nnewlines.' },
    model: 'gemini-2.5-pro',
    abortDeadlineMs: ABORT_DEADLINE_BACKSTOP_MS,
  },
);
