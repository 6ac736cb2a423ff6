/**
 * `hermes doctor` connects every enabled MCP server — even with `--offline`, since a stdio server
 * is local — and prints one line per server: its tool count and connect time, or its error.
 * Real server-everything child process; a missing binary for the broken one.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';

const EVERYTHING = fileURLToPath(
  new URL('../../../packages/mcp/node_modules/.bin/mcp-server-everything', import.meta.url),
);
const home = () => process.env.HERMES_HOME as string;

async function doctor(...argv: string[]) {
  const c = capture();
  const code = await main(['doctor', ...argv], c.io);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

/** The `mcp` check's lines: its first line and the indented ones under it. */
function mcpLines(output: string): string[] {
  const lines = output.split('\n');
  const start = lines.findIndex((l) => /^ {2}\S mcp {2}/.test(l));
  if (start === -1) return [];
  const end = lines.findIndex((l, i) => i > start && !/^ {17}/.test(l));
  return lines.slice(start, end === -1 ? undefined : end);
}

describe('hermes doctor and MCP servers', { timeout: 60_000 }, () => {
  it('says when no server is configured', async () => {
    const result = await doctor('--offline');
    expect(mcpLines(result.stdout).join('\n')).toContain('✓ mcp');
    expect(mcpLines(result.stdout).join('\n')).toContain('no servers configured');
  });

  it('connects each enabled server: tools and time, or the error, with the fix', async () => {
    writeFileSync(
      join(home(), 'config.yaml'),
      `mcp_servers:\n  everything:\n    command: ${EVERYTHING}\n    args: [stdio]\n` +
        `  broken:\n    command: ${join(home(), 'missing-binary')}\n` +
        `  idle:\n    command: ${EVERYTHING}\n    enabled: false\n`,
    );
    const result = await doctor('--offline');
    const lines = mcpLines(result.stdout);
    expect(lines[0]).toMatch(/^ {2}! mcp {12}everything: \d+ tools \(connected in \d+ ms\)$/);
    expect(lines[1]).toMatch(/^ {19}broken: failed — \S/);
    expect(lines[2]).toContain("fix: see 'hermes mcp test broken'");
    expect(lines.join('\n')).not.toContain('idle');
  });
});
