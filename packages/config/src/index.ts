/**
 * @packageDocumentation
 * Where Hermes TS reads its settings, shared by the `hermes` and `hermes-gateway` binaries (which
 * may not import each other): the data home, command-line option scanning, and the plumbing of a
 * command-line entry point, and where a profile's data home is. Reading `config.yaml` and `.env`
 * lives in `@hermes/runtime`.
 */
export * from './command-line.js';
export * from './hermes-home.js';
export * from './package-version.js';
export * from './profile-home.js';
export * from './run-command-line.js';
