import { describeModelProviderContract } from '../src/testing.js';
import { ScriptedProvider } from './support/scripted-provider.js';

describeModelProviderContract(
  'in-test scripted provider',
  ({ script }) => new ScriptedProvider(script),
);

describeModelProviderContract(
  'in-test scripted provider, one-character chunks, custom script',
  ({ script }) => new ScriptedProvider(script, 1),
  { script: { text: 'Ünïcödé → 你好, with "quotes" and\nnewlines.' }, model: 'other-model' },
);
