/**
 * `hermes mcp list|add|remove|test`, in-process, against a real config.yaml in the test's
 * HERMES_HOME and, for `test`, the real server-everything child process.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';

const EVERYTHING = fileURLToPath(
  new URL('../../../packages/mcp/node_modules/.bin/mcp-server-everything', import.meta.url),
);
const home = () => process.env.HERMES_HOME as string;
const configPath = () => join(home(), 'config.yaml');
const ref = (name: string) => `\${${name}}`;

async function hermes(...argv: string[]) {
  const c = capture();
  const code = await main(argv, c.io);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

describe('hermes mcp add / list / remove', () => {
  it('adds a stdio and an HTTP server, lists them, removes one', async () => {
    writeFileSync(configPath(), '# mine\nagent:\n  max_turns: 9\n');
    const stdio = await hermes(
      'mcp',
      'add',
      'files',
      '--command',
      'npx',
      '--arg',
      '-y',
      '--arg',
      '@modelcontextprotocol/server-filesystem',
      '--arg=/tmp/my dir',
      '--env',
      'LOG_LEVEL=debug',
      '--exclude',
      'write_file',
    );
    expect(stdio).toMatchObject({ code: 0 });
    expect(stdio.stdout).toContain("Added MCP server 'files' (stdio)");
    const http = await hermes(
      'mcp',
      'add',
      'remote',
      '--url',
      'https://mcp.example.com/mcp',
      '--header',
      `Authorization=Bearer ${ref('REMOTE_TOKEN')}`,
      '--timeout',
      '30',
      '--disabled',
    );
    expect(http).toMatchObject({ code: 0 });
    const text = readFileSync(configPath(), 'utf8');
    expect(text).toContain('# mine');
    expect(text).toContain(`Authorization: Bearer ${ref('REMOTE_TOKEN')}`);

    const list = await hermes('mcp', 'list');
    expect(list.code).toBe(0);
    const lines = list.stdout.split('\n');
    expect(lines[0]).toMatch(/^NAME\s+TRANSPORT\s+ENABLED\s+TOOLS\s+COMMAND \/ URL$/);
    expect(lines[1]).toMatch(
      /^files\s+stdio\s+yes\s+exclude: write_file\s+npx -y @modelcontextprotocol\/server-filesystem '\/tmp\/my dir'$/,
    );
    expect(lines[2]).toMatch(/^remote\s+http\s+no\s+all tools\s+https:\/\/mcp\.example\.com\/mcp$/);
    const json = JSON.parse((await hermes('mcp', 'list', '--json')).stdout) as unknown[];
    expect(json).toHaveLength(2);

    expect(await hermes('mcp', 'remove', 'files')).toMatchObject({ code: 0 });
    const gone = await hermes('mcp', 'remove', 'files');
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("no MCP server named 'files'");
    expect((await hermes('mcp', 'list')).stdout).not.toContain('files');
  });

  it('refuses a literal token, pointing at .env and a reference', async () => {
    const result = await hermes(
      'mcp',
      'add',
      'gh',
      '--command',
      'x',
      '--env',
      'GITHUB_TOKEN=ghp_abc',
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('hermes config set GITHUB_TOKEN <value>');
    expect(result.stderr).toContain(`--env GITHUB_TOKEN='${ref('GITHUB_TOKEN')}'`);
    expect(result.stderr).not.toContain('ghp_abc');
  });

  it('refuses a duplicate name unless --force, and says what is wrong with the arguments', async () => {
    expect(await hermes('mcp', 'add', 'a', '--command', 'x')).toMatchObject({ code: 0 });
    const again = await hermes('mcp', 'add', 'a', '--command', 'y');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already configured');
    expect(await hermes('mcp', 'add', 'a', '--command', 'y', '--force')).toMatchObject({ code: 0 });
    const both = await hermes('mcp', 'add', 'b', '--command', 'x', '--url', 'http://h/');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('either --command');
    const badEnv = await hermes('mcp', 'add', 'b', '--command', 'x', '--env', 'NOEQUALS');
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain("needs NAME=VALUE, got 'NOEQUALS'");
    const unknown = await hermes('mcp', 'frobnicate');
    expect(unknown.code).toBe(2);
  });

  it('routes serve to its own module', async () => {
    const help = await hermes('mcp', 'serve', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: hermes mcp serve');
    expect((await hermes('mcp', '--help')).stdout).toContain('serve [--http <port>]');
  });

  it('says there are none, and that the config is broken', async () => {
    expect((await hermes('mcp', 'list')).stdout).toContain('No MCP servers configured');
    writeFileSync(configPath(), 'mcp_servers:\n  fs:\n    comand: x\n');
    const broken = await hermes('mcp', 'list');
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('mcp_servers.fs');
  });
});

describe('hermes mcp test', { timeout: 60_000 }, () => {
  it('connects, lists the tools with timings; exits 1 with the error for a broken server', async () => {
    writeFileSync(
      configPath(),
      `mcp_servers:\n  everything:\n    command: ${EVERYTHING}\n    args: [stdio]\n    tools:\n      include: [echo, get-sum]\n` +
        `  broken:\n    command: ${join(home(), 'missing-binary')}\n`,
    );
    const ok = await hermes('mcp', 'test', 'everything');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(
      /✓ everything \(stdio\): connected in \d+ ms; 6 tools listed in \d+ ms/,
    );
    expect(ok.stdout).toMatch(/mcp_everything_echo\s+Echoes back the input string/);
    expect(ok.stdout).toContain('mcp_everything_get-sum');
    // The two included tools, and the resource and prompt utilities (the server has both).
    expect(ok.stdout).toContain('mcp_everything_read_resource');
    expect(ok.stdout).not.toContain('mcp_everything_get-env');
    const bad = await hermes('mcp', 'test', 'broken');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/✗ broken \(stdio\) did not connect after \d+ ms: \S/);
    const missing = await hermes('mcp', 'test', 'nope');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no MCP server named 'nope'");
    expect(missing.stderr).toContain('configured: everything, broken');
  });
});
