/** `hermes tools list`: the core tools by toolset, with availability and enablement. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';

interface Row {
  name: string;
  toolset: string;
  available: boolean;
  enabled: boolean;
  reason?: string;
}

async function list(...extra: string[]) {
  const c = capture();
  const code = await main(['tools', 'list', ...extra], c.io);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

describe('hermes tools list', () => {
  it('groups tools by toolset and marks availability', async () => {
    const result = await list();
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^terminal:$/m);
    expect(result.stdout).toMatch(/✓ terminal/);
    expect(result.stdout).toMatch(/✗ web_search\s+\(/);
  });

  it('reflects toolsets and disabled_toolsets from config.yaml', async () => {
    writeFileSync(
      join(process.env.HERMES_HOME as string, 'config.yaml'),
      'toolsets: [hermes-cli]\ndisabled_toolsets: [terminal]\n',
    );
    const rows = JSON.parse((await list('--json')).stdout) as Row[];
    const terminal = rows.find((row) => row.name === 'terminal');
    const readFile = rows.find((row) => row.name === 'read_file');
    expect(terminal).toMatchObject({ toolset: 'terminal', available: true, enabled: false });
    expect(readFile).toMatchObject({ toolset: 'file', enabled: true });
    expect(rows.some((row) => row.name === 'memory')).toBe(true);
  });
});
