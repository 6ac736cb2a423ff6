/**
 * @packageDocumentation
 * One configuration, one agent factory, shared by the `hermes` and `hermes-gateway` binaries:
 * reading `HERMES_HOME/config.yaml` and `.env` (validated, `${VAR}` substituted, environment
 * overrides applied) and building Agents from the result.
 */
export {};
