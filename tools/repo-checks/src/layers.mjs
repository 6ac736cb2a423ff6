// @ts-check
/**
 * The dependency direction of ARCHITECTURE.md ("Shape") as data, and the rule that reads it:
 * which workspace member may depend on which.
 */

/**
 * @typedef {import('./workspace.mjs').Member} Member
 * @typedef {'imports-app' | 'plugin-import' | 'layer'} DirectionKind
 * @typedef {{ kind: DirectionKind, why: string }} RuleBreak
 */

export const PROTOCOL = '@hermes/protocol';
export const PLUGIN_SDK = '@hermes/plugin-sdk';
export const TESTKIT = '@hermes/testkit';

/**
 * Allowed arrows between packages under packages/* ("may import"), from ARCHITECTURE.md.
 *
 * Key: the importing package. Value: the workspace packages it may import in addition to
 * @hermes/protocol, which every package may import. `'*'` means every package under packages/*
 * (never an app or a plugin). A package that is not a key may import only @hermes/protocol.
 *
 * Later issues extend this map when ARCHITECTURE.md grants a new arrow: add the arrow there first,
 * then here, in the same change. Apps and plugins are not listed; they have their own rules.
 * @type {Readonly<Record<string, readonly string[]>>}
 */
export const LAYER_ALLOW = {
  // ABCs and types only; concrete providers, stores and engines are injected by the app.
  '@hermes/loop': [
    '@hermes/providers',
    '@hermes/context-engine',
    '@hermes/memory',
    '@hermes/tools',
    '@hermes/state',
    // The Agent takes an ApprovalHandler and an ExecutionEnvironment, and builds the skills index
    // into the system prompt: seams and types, injected like the rest.
    '@hermes/approval',
    '@hermes/environments',
    '@hermes/skills',
  ],
  // state is for session_search; memory for the memory tool.
  '@hermes/tools': [
    '@hermes/environments',
    '@hermes/approval',
    '@hermes/state',
    '@hermes/skills',
    '@hermes/memory',
  ],
  // MCP servers' tools become registry tools (ToolSpec, ToolContext, types only); shell-running
  // calls go through the command approver the ToolContext carries.
  '@hermes/mcp': ['@hermes/tools'],
  // The cronjob tool is a registry tool (ToolSpec, types only); a job's prompt and the skills it
  // loads pass the skills content scan before the model sees them. state: the job store on
  // PostgreSQL shares `PostgresDatabase` (pool, schema, migration runner) from @hermes/state/postgres.
  '@hermes/cron': ['@hermes/tools', '@hermes/skills', '@hermes/state'],
  // The pipeline drives Agents; its chat approval handler implements the approval seam. state: the
  // gateway store, lane and pairing data on PostgreSQL share `PostgresDatabase` with the others.
  '@hermes/gateway': ['@hermes/loop', '@hermes/approval', '@hermes/state'],
  // One configuration, one agent factory: reads config.yaml and composes every package into
  // Agents for both binaries (which may not import each other). Nothing but apps imports it.
  '@hermes/runtime': ['*'],
  // What a plugin author imports: it re-exports the seams of every package.
  '@hermes/plugin-sdk': ['*'],
  // Stays a leaf (protocol only) so any package can use it in tests without creating a cycle.
  '@hermes/testkit': [],
};

/** Every package may import these. */
export const ALWAYS_ALLOWED = [PROTOCOL];

/**
 * Any package may use these from test code (test/, bench/, *.test.ts, top-level config files)
 * and devDependencies, but not from src/ or runtime dependencies: they are test infrastructure.
 */
export const TEST_ONLY_ALLOWED = [TESTKIT];

/** The root of the graph: imports no workspace member at all, not even from tests. */
export const NO_WORKSPACE_IMPORTS = [PROTOCOL];

/**
 * Which direction rule, if any, forbids `importer` from depending on `target`.
 * @param {Member} importer
 * @param {Member} target
 * @param {boolean} testOnly the edge is used only by tests (test file or devDependency)
 * @returns {RuleBreak | undefined}
 */
export function ruleBreak(importer, target, testOnly) {
  if (target.kind === 'app') {
    return { kind: 'imports-app', why: `${target.name} is an app (${target.relDir})` };
  }
  if (importer.kind === 'plugin') {
    if (target.name === PLUGIN_SDK) return undefined;
    return {
      kind: 'plugin-import',
      why: `${importer.name} is a plugin and ${target.name} is not ${PLUGIN_SDK}`,
    };
  }
  if (importer.kind === 'app' || layerAllows(importer.name, target, testOnly)) return undefined;
  const allowed = describeAllowed(importer.name);
  return { kind: 'layer', why: `${importer.name} may import only ${allowed}, not ${target.name}` };
}

/**
 * @param {string} importer
 * @param {Member} target
 * @param {boolean} testOnly
 */
function layerAllows(importer, target, testOnly) {
  if (NO_WORKSPACE_IMPORTS.includes(importer)) return false;
  if (ALWAYS_ALLOWED.includes(target.name)) return true;
  if (testOnly && TEST_ONLY_ALLOWED.includes(target.name)) return true;
  const allowed = LAYER_ALLOW[importer] ?? [];
  return allowed.includes(target.name) || (allowed.includes('*') && target.kind === 'package');
}

/**
 * @param {string} importer
 * @returns {string} human-readable list for messages
 */
function describeAllowed(importer) {
  if (NO_WORKSPACE_IMPORTS.includes(importer)) return 'third-party libraries (no workspace member)';
  const allowed = [...ALWAYS_ALLOWED, ...(LAYER_ALLOW[importer] ?? [])];
  return `${allowed.join(', ')} (and ${TEST_ONLY_ALLOWED.join(', ')} from tests)`;
}
