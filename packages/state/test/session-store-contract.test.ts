import { describeSessionStoreContract } from '../src/testing.js';
import { InMemorySessionStore } from './support/in-memory-session-store.js';

describeSessionStoreContract('in-test in-memory store', () => new InMemorySessionStore());
