/** Where `terminal` and `process` find a session's background processes. */
import { BackgroundProcesses, type ExecutionEnvironment } from '@hermes/environments';

/** The background-process table of an environment (one environment serves one session). */
export type ProcessTableProvider = (environment: ExecutionEnvironment) => BackgroundProcesses;

/**
 * A provider that creates one {@link BackgroundProcesses} per environment on first use and keeps
 * it as long as the environment lives.
 */
export function processTablePerEnvironment(): ProcessTableProvider {
  const tables = new WeakMap<ExecutionEnvironment, BackgroundProcesses>();
  return (environment) => {
    let table = tables.get(environment);
    if (!table) {
      table = new BackgroundProcesses(environment);
      tables.set(environment, table);
    }
    return table;
  };
}
