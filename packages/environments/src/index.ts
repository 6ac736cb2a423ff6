/**
 * @packageDocumentation
 * Where Hermes runs commands: the {@link ExecutionEnvironment} seam, its options and result
 * types, and {@link EnvironmentConnectionError} for failures of the environment itself. The
 * local, sandbox, ssh and container backends arrive with issue 6.
 */
export * from './description.js';
export * from './errors.js';
export * from './execute.js';
export * from './execution-environment.js';
