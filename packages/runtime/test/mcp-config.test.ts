/**
 * The `mcp_servers:` section: validated with `@hermes/mcp`'s schema (defaults applied, `${VAR}`
 * from `.env` substituted, a misspelt key an error naming it), handed over as
 * `HermesConfig.mcpServers`, and edited one server at a time by `setMcpServer` /
 * `removeMcpServer` with credentials kept in `.env`. Real files in the test's HERMES_HOME.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkConfig,
  loadHermesConfig,
  readConfigSource,
  removeMcpServer,
  setMcpServer,
} from '../src/index.ts';

const home = () => process.env.HERMES_HOME as string;
/** `${NAME}` as config.yaml spells a reference to a variable. */
const ref = (name: string) => `\${${name}}`;
const configPath = () => join(home(), 'config.yaml');

function writeConfig(text: string): void {
  writeFileSync(configPath(), text);
}

describe('mcp_servers in config.yaml', () => {
  it('reaches HermesConfig.mcpServers with defaults and .env variables substituted', async () => {
    writeFileSync(join(home(), '.env'), 'GITHUB_TOKEN=ghp-from-dotenv\n');
    writeConfig(
      [
        'mcp_servers:',
        '  github:',
        '    command: npx',
        '    args: [-y, server-github]',
        '    env:',
        `      GITHUB_TOKEN: ${ref('GITHUB_TOKEN')}`,
        '    tools:',
        '      include: [create_issue]',
        '  remote:',
        '    url: https://mcp.example.com/mcp',
        '    enabled: false',
        '    timeout: 30',
        '',
      ].join('\n'),
    );
    const config = await loadHermesConfig({ hermesHome: home(), env: {} });
    expect(config.warnings).toEqual([]);
    expect(config.mcpServers?.github).toMatchObject({
      command: 'npx',
      args: ['-y', 'server-github'],
      env: { GITHUB_TOKEN: 'ghp-from-dotenv' },
      tools: { include: ['create_issue'] },
      enabled: true,
      timeout: 300,
      connect_timeout: 60,
      approval: 'auto',
    });
    expect(config.mcpServers?.remote).toMatchObject({ url: 'https://mcp.example.com/mcp' });
    expect(config.mcpServers?.remote?.enabled).toBe(false);
    expect(config.mcpServers?.remote?.timeout).toBe(30);
  });

  it('is absent from HermesConfig when config.yaml has no section', async () => {
    writeConfig('agent:\n  max_turns: 5\n');
    const config = await loadHermesConfig({ hermesHome: home(), env: {} });
    expect(config.mcpServers).toBeUndefined();
  });

  it('rejects a misspelt key, naming the server and its line', async () => {
    writeConfig('mcp_servers:\n  fs:\n    comand: mcp-server-filesystem\n');
    const check = checkConfig(readConfigSource(home()), {}, home());
    expect(check.config).toBeUndefined();
    const problem = check.problems.find((p) => p.path.startsWith('mcp_servers.fs'));
    expect(problem).toBeDefined();
    expect(problem?.line).toBe(2);
    await expect(loadHermesConfig({ hermesHome: home(), env: {} })).rejects.toThrow(
      /mcp_servers\.fs/,
    );
  });

  it('rejects a url that is not http(s) and a bad timeout', () => {
    writeConfig(
      'mcp_servers:\n  a:\n    url: ftp://x.example/mcp\n  b:\n    command: x\n    timeout: -1\n',
    );
    const check = checkConfig(readConfigSource(home()), {}, home());
    const paths = check.problems.map((p) => p.path);
    expect(paths.some((p) => p.startsWith('mcp_servers.a'))).toBe(true);
    expect(paths.some((p) => p.startsWith('mcp_servers.b'))).toBe(true);
  });
});

describe('setMcpServer / removeMcpServer', () => {
  it('adds a stdio server, keeping the comments of the file', async () => {
    writeConfig('# my settings\nagent:\n  max_turns: 7 # keep\n');
    const replaced = setMcpServer(
      home(),
      'fs',
      { command: '/usr/bin/mcp-fs', args: ['/tmp'], env: { LOG_LEVEL: 'debug' } },
      { env: {} },
    );
    expect(replaced).toBe(false);
    const text = readFileSync(configPath(), 'utf8');
    expect(text).toContain('# my settings');
    expect(text).toContain('# keep');
    const config = await loadHermesConfig({ hermesHome: home(), env: {} });
    expect(config.mcpServers?.fs).toMatchObject({ command: '/usr/bin/mcp-fs', args: ['/tmp'] });
    expect(config.maxTurns).toBe(7);
  });

  it('refuses a second server of the same name unless replacing', async () => {
    setMcpServer(home(), 'web', { url: 'http://127.0.0.1:9/mcp' }, { env: {} });
    expect(() =>
      setMcpServer(home(), 'web', { url: 'http://127.0.0.1:10/mcp' }, { env: {} }),
    ).toThrow(/already configured/);
    expect(
      setMcpServer(home(), 'web', { url: 'http://127.0.0.1:10/mcp' }, { env: {}, replace: true }),
    ).toBe(true);
    const config = await loadHermesConfig({ hermesHome: home(), env: {} });
    expect(config.mcpServers?.web).toMatchObject({ url: 'http://127.0.0.1:10/mcp' });
  });

  it('refuses a literal credential and accepts a reference to a .env variable', async () => {
    expect(() =>
      setMcpServer(
        home(),
        'gh',
        { command: 'x', env: { GITHUB_TOKEN: 'ghp-literal' } },
        { env: {} },
      ),
    ).toThrow(/GITHUB_TOKEN='\$\{GITHUB_TOKEN\}'/);
    expect(() =>
      setMcpServer(
        home(),
        'api',
        { url: 'https://a.example/mcp', headers: { Authorization: 'Bearer abc' } },
        { env: {} },
      ),
    ).toThrow(/would put a secret into config\.yaml/);
    setMcpServer(
      home(),
      'gh',
      { command: 'x', env: { GITHUB_TOKEN: ref('GITHUB_TOKEN') } },
      { env: {} },
    );
    expect(readFileSync(configPath(), 'utf8')).toContain(`GITHUB_TOKEN: ${ref('GITHUB_TOKEN')}`);
    expect(readFileSync(configPath(), 'utf8')).not.toContain('ghp-literal');
    const config = await loadHermesConfig({ hermesHome: home(), env: { GITHUB_TOKEN: 'ghp-1' } });
    expect(config.mcpServers?.gh).toMatchObject({ env: { GITHUB_TOKEN: 'ghp-1' } });
  });

  it('refuses an entry the schema rejects and writes nothing', () => {
    writeConfig('agent:\n  max_turns: 7\n');
    expect(() =>
      setMcpServer(home(), 'bad', { command: 'x', url: 'http://a/' }, { env: {} }),
    ).toThrow(/mcp_servers\.bad/);
    expect(() => setMcpServer(home(), 'bad name', { command: 'x' }, { env: {} })).toThrow(
      /mcp_servers/,
    );
    expect(readFileSync(configPath(), 'utf8')).toBe('agent:\n  max_turns: 7\n');
  });

  it('removes a server and says whether it was there', async () => {
    setMcpServer(home(), 'a', { command: 'x' }, { env: {} });
    setMcpServer(home(), 'b', { command: 'y' }, { env: {} });
    expect(removeMcpServer(home(), 'a', {})).toBe(true);
    expect(removeMcpServer(home(), 'a', {})).toBe(false);
    const config = await loadHermesConfig({ hermesHome: home(), env: {} });
    expect(Object.keys(config.mcpServers ?? {})).toEqual(['b']);
  });
});
