import { describeContextEngineContract } from '../src/testing.js';
import { KeepLastNEngine } from './support/keep-last-n-engine.js';

describeContextEngineContract(
  'in-test keep-last-N engine',
  ({ contextLength }) => new KeepLastNEngine(contextLength),
);

describeContextEngineContract(
  'in-test keep-last-N engine keeping 2 on a small window',
  ({ contextLength }) => new KeepLastNEngine(contextLength, 2),
  { contextLength: 8_000 },
);
