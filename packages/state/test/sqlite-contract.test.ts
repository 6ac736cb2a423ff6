import { join } from 'node:path';
import { openSessionStore } from '../src/index.js';
import { describeSessionStoreContract } from '../src/testing.js';

let counter = 0;

describeSessionStoreContract('sqlite', () =>
  openSessionStore({ path: join(process.env.HERMES_HOME ?? '', `contract-${++counter}.db`) }),
);
