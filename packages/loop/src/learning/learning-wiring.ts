/**
 * The learning loop's attachment to an agent built by `createAgent`: after a turn, when a review
 * is due, a review agent is forked off the critical path. (Placeholder: filled in by the
 * learning-loop work of issue 22.)
 */
import type { SessionStore } from '@hermes/state';
import type { Agent } from '../agent.js';
import type { AuxiliaryModels } from '../auxiliary/auxiliary-models.js';
import type { LearningConfig } from './learning-config.js';

/** What `createAgent` gives the learning loop. */
export interface LearningWiringInput {
  /** The agent (set once built). */
  readonly agent: () => Agent | undefined;
  readonly auxiliary: AuxiliaryModels;
  readonly hermesHome: string;
  readonly platform: string;
  readonly sessionStore: SessionStore;
  readonly settings?: LearningConfig;
}

/** The learning loop of one agent. */
export interface LearningHandle {
  /** Runs a review now (`/learn`); resolves one line saying what it did. */
  runNow(): Promise<string>;
  /** Resolves once no review is running (tests, shutdown). */
  idle(): Promise<void>;
  /** Stops listening and waits for a running review. */
  close(): Promise<void>;
}

/** Attaches the learning loop to the agent. */
export function wireLearning(_input: LearningWiringInput): LearningHandle {
  return {
    runNow: async () => 'The learning loop is not available in this build.',
    idle: async () => {},
    close: async () => {},
  };
}
