/** Helpers the contract checks share. Imports only types and schemas from the package. */
import { contractViolation, isContractViolation, within } from '@hermes/protocol/testing';
import { type ExecuteOptions, type ExecuteResult, ExecuteResultSchema } from './execute.js';
import type { ExecutionEnvironment } from './execution-environment.js';

/** Runs `command`, failing unless it settles within `ms` with a well-formed result. */
export async function run(
  environment: ExecutionEnvironment,
  command: string,
  options: ExecuteOptions,
  ms: number,
): Promise<ExecuteResult> {
  const what = `execute(${JSON.stringify(command.slice(0, 120))})`;
  let result: unknown;
  try {
    result = await within(environment.execute(command, options), ms, what);
  } catch (error) {
    if (isContractViolation(error)) throw error;
    contractViolation(`${what} rejected instead of returning a result: ${String(error)}`);
  }
  return parseResult(result, what);
}

/** Parses `value` as an {@link ExecuteResult}, failing with every malformed field named. */
export function parseResult(value: unknown, what: string): ExecuteResult {
  const parsed = ExecuteResultSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (i) => `${i.path.join('.') || '(root)'}: ${i.message}`,
    );
    contractViolation(`${what} returned a malformed result (${problems.join('; ')})`);
  }
  return parsed.data;
}

/** A short, readable account of a result for violation messages. */
export function describeResult(result: ExecuteResult): string {
  const { output, ...rest } = result;
  return `${JSON.stringify(rest)} with output ${JSON.stringify(output.slice(0, 200))}`;
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A name unlikely to clash with anything in the environment's working directory. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
