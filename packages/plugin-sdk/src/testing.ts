/**
 * @packageDocumentation
 * The contract suites of all seven seams, so a plugin tests its implementation against the same
 * contract as ours with one import:
 *
 * ```ts
 * import { describeMemoryProviderContract } from '@hermes/plugin-sdk/testing';
 * describeMemoryProviderContract('my memory', () => new MyMemoryProvider());
 * ```
 *
 * Each suite's assertion functions stay in the owning package's `testing` subpath.
 */
export {
  type ApprovalHandlerContractOptions,
  type ApprovalHandlerFactory,
  type ApprovalHandlerFixture,
  describeApprovalHandlerContract,
  type ScriptedHuman,
} from '@hermes/approval/testing';
export {
  type ContextEngineContractOptions,
  type ContextEngineContractSetup,
  type ContextEngineFactory,
  describeContextEngineContract,
} from '@hermes/context-engine/testing';
export {
  describeExecutionEnvironmentContract,
  type ExecutionEnvironmentContractOptions,
  type ExecutionEnvironmentFactory,
  type ExecutionEnvironmentFixture,
} from '@hermes/environments/testing';
export {
  describePlatformAdapterContract,
  type PlatformAdapterContractOptions,
  type PlatformAdapterFactory,
  type PlatformAdapterFixture,
  type SimulatedInbound,
} from '@hermes/gateway/testing';
export {
  describeMemoryProviderContract,
  type MemoryProviderContractOptions,
  type MemoryProviderContractSetup,
  type MemoryProviderFactory,
} from '@hermes/memory/testing';
export {
  describeModelProviderContract,
  type ModelProviderContractOptions,
  type ModelProviderFactory,
  type ProviderContractSetup,
} from '@hermes/providers/testing';
export {
  describeSessionStoreContract,
  type SessionStoreContractOptions,
  type SessionStoreFactory,
} from '@hermes/state/testing';
export * from './testing-process.js';
