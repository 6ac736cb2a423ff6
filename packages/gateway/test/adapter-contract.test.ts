import { describePlatformAdapterContract } from '../src/testing.js';
import { LoopbackAdapter } from './support/loopback-adapter.js';

function fixture(adapter: LoopbackAdapter) {
  return { adapter, simulateInbound: adapter.simulateInbound.bind(adapter) };
}

describePlatformAdapterContract('in-memory loopback', () => fixture(new LoopbackAdapter()));

describePlatformAdapterContract('loopback, SMS-sized and unable to edit', () =>
  fixture(new LoopbackAdapter({ maxMessageLength: 160, canEdit: false, supportsMarkdown: false })),
);
