/** `@hermes/plugin-sdk/testing` offers every seam's contract suite, unchanged. */
import * as approval from '@hermes/approval/testing';
import * as contextEngine from '@hermes/context-engine/testing';
import * as environments from '@hermes/environments/testing';
import * as gateway from '@hermes/gateway/testing';
import * as memory from '@hermes/memory/testing';
import * as providers from '@hermes/providers/testing';
import * as state from '@hermes/state/testing';
import { describe, expect, it } from 'vitest';
import * as testing from '../src/testing.js';

const SUITES = [
  [
    'describeModelProviderContract',
    testing.describeModelProviderContract,
    providers.describeModelProviderContract,
  ],
  [
    'describeSessionStoreContract',
    testing.describeSessionStoreContract,
    state.describeSessionStoreContract,
  ],
  [
    'describeContextEngineContract',
    testing.describeContextEngineContract,
    contextEngine.describeContextEngineContract,
  ],
  [
    'describeMemoryProviderContract',
    testing.describeMemoryProviderContract,
    memory.describeMemoryProviderContract,
  ],
  [
    'describeApprovalHandlerContract',
    testing.describeApprovalHandlerContract,
    approval.describeApprovalHandlerContract,
  ],
  [
    'describeExecutionEnvironmentContract',
    testing.describeExecutionEnvironmentContract,
    environments.describeExecutionEnvironmentContract,
  ],
  [
    'describePlatformAdapterContract',
    testing.describePlatformAdapterContract,
    gateway.describePlatformAdapterContract,
  ],
] as const;

describe('the SDK testing subpath', () => {
  for (const [name, fromSdk, fromPackage] of SUITES) {
    it(`re-exports ${name}`, () => {
      expect(typeof fromSdk).toBe('function');
      expect(fromSdk).toBe(fromPackage);
    });
  }
});
