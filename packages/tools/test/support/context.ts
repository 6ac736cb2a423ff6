/** A hand-built ToolContext for registry tests: nothing here runs commands. */
import { type ExecuteResult, ExecutionEnvironment } from '@hermes/environments';
import type { ToolContext } from '../../src/index.js';

/** An environment that refuses to run anything, so a test notices if dispatch tries. */
class RefusingEnvironment extends ExecutionEnvironment {
  readonly name = 'refusing';
  async execute(): Promise<ExecuteResult> {
    throw new Error('registry tests never execute commands');
  }
  async cleanup(): Promise<void> {}
}

/** A context for one call, with optional overrides. */
export function makeContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    sessionId: 'test-session',
    platform: 'cli',
    hermesHome: process.env.HERMES_HOME ?? '/nonexistent',
    environment: new RefusingEnvironment(),
    signal: new AbortController().signal,
    ...overrides,
  };
}
