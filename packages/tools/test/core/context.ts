/** Builds ToolContexts for core-tool tests. */
import { type ExecuteResult, ExecutionEnvironment } from '@hermes/environments';
import type { ToolContext } from '../../src/tool-context.js';
import type { ToolHandlerResult, ToolSpec } from '../../src/tool-spec.js';

/** An environment for tools that must not run commands: any execute call fails the test. */
export class NoCommandsEnvironment extends ExecutionEnvironment {
  readonly name = 'none';
  override execute(command: string): Promise<ExecuteResult> {
    return Promise.reject(new Error(`unexpected command: ${command}`));
  }
  override cleanup(): Promise<void> {
    return Promise.resolve();
  }
}

/** A context with a fresh abort signal; override any field. */
export function makeContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    sessionId: 'session-1',
    platform: 'cli',
    hermesHome: process.env.HERMES_HOME ?? '/tmp',
    environment: new NoCommandsEnvironment(),
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** Validates `args` with the tool's zod schema (as dispatch does), then runs the handler. */
export async function call(
  spec: ToolSpec,
  args: unknown,
  ctx: ToolContext,
): Promise<ToolHandlerResult> {
  const schema = spec.parameters as { parse?: (value: unknown) => Record<string, unknown> };
  if (typeof schema.parse !== 'function') throw new Error(`${spec.name} has no zod schema`);
  return spec.handler(schema.parse(args), ctx);
}

/** The text of a handler result. */
export async function text(
  result: Promise<ToolHandlerResult> | ToolHandlerResult,
): Promise<string> {
  const value = await result;
  return typeof value === 'string' ? value : value.text;
}
