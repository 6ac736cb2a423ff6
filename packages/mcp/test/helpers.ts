/** Shared helpers for the MCP tests: server commands, a tool context, and a hub that closes. */
import { fileURLToPath } from 'node:url';
import type { ToolContext, ToolSpec } from '@hermes/tools';
import { afterEach } from 'vitest';
import {
  McpHub,
  type McpHubOptions,
  type McpServersSectionInput,
  McpServersSectionSchema,
} from '../src/index.js';

const bin = (name: string) =>
  fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

/** The reference servers' binaries and the test fixture. */
export const EVERYTHING_BIN = bin('mcp-server-everything');
export const FILESYSTEM_BIN = bin('mcp-server-filesystem');
export const FIXTURE_SERVER = fileURLToPath(new URL('./fixtures/test-server.mjs', import.meta.url));

/** A stdio entry that runs the fixture server in `mode`. */
export function fixtureEntry(mode = 'normal', extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: [FIXTURE_SERVER, mode], ...extra };
}

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

/** A started hub over `servers`, closed after the test. */
export async function startHub(
  servers: McpServersSectionInput,
  options: Omit<McpHubOptions, 'servers'> = {},
): Promise<McpHub> {
  const hub = new McpHub({ servers: McpServersSectionSchema.parse(servers), ...options });
  hubs.push(hub);
  await hub.start();
  return hub;
}

/** A tool context for direct handler calls. */
export function toolContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    sessionId: 'mcp-test',
    platform: 'cli',
    hermesHome: process.env.HERMES_HOME ?? '/tmp',
    // MCP tools never run commands locally; @hermes/mcp may not depend on @hermes/environments.
    environment: undefined as unknown as ToolContext['environment'],
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** The spec named `name`, or a failed test naming the ones there are. */
export function specNamed(specs: readonly ToolSpec[], name: string): ToolSpec {
  const spec = specs.find((s) => s.name === name);
  if (!spec) throw new Error(`no tool ${name}; have ${specs.map((s) => s.name).join(', ')}`);
  return spec;
}

/** Runs a spec's handler and returns its text. */
export async function callSpec(
  spec: ToolSpec,
  args: Record<string, unknown>,
  ctx: ToolContext = toolContext(),
): Promise<string> {
  const result = await spec.handler(args, ctx);
  return typeof result === 'string' ? result : result.text;
}
