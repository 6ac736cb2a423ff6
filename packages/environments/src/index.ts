/**
 * @packageDocumentation
 * Where Hermes runs commands: the {@link ExecutionEnvironment} seam and its backends (`local`,
 * `sandbox` via bubblewrap, `ssh`, `docker`), the bounded output collector, file operations over
 * `execute()`, background processes, and {@link createEnvironment}, which picks the backend for
 * a session from `terminal.backend`.
 */

export * from './background-launch.js';
export * from './background-processes.js';
export * from './description.js';
export * from './docker-command.js';
export * from './docker-environment.js';
export * from './environment-config.js';
export * from './errors.js';
export * from './execute.js';
export * from './execution-environment.js';
export * from './file-operations.js';
export * from './local-environment.js';
export * from './local-file-operations.js';
export * from './output-collector.js';
export * from './process-environment.js';
export * from './ring-buffer.js';
export * from './sandbox-environment.js';
export * from './shell-file-operations.js';
export * from './shell-script.js';
export * from './ssh-environment.js';
export * from './storage.js';
