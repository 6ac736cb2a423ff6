/** `hermes approval check`: in-process through main, and end-to-end through the built binary. */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

function run(
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('hermes approval check', () => {
  it('prints the verdict as text', async () => {
    const c = capture();
    expect(await main(['approval', 'check', '--', "bash -lc 'rm -rf build'"], c.io)).toBe(0);
    expect(c.stdout()).toContain('decision: ask\nstage:    dangerous_pattern\n');
    expect(c.stdout()).toContain('pattern:  recursive_delete');
  });

  it('applies the allowlist and deny rules from config.yaml', async () => {
    const home = process.env.HERMES_HOME as string;
    writeFileSync(
      join(home, 'config.yaml'),
      'approvals:\n  command_allowlist: [recursive_delete]\n  deny: ["npm publish*"]\n',
    );
    const allowed = capture();
    await main(['approval', 'check', '--json', '--', 'rm -rf build'], allowed.io);
    expect(JSON.parse(allowed.stdout())).toMatchObject({ decision: 'allow', stage: 'allowlist' });
    const denied = capture();
    await main(['approval', 'check', '--json', '--', 'cd x && npm publish'], denied.io);
    expect(JSON.parse(denied.stdout())).toMatchObject({ decision: 'block', stage: 'user_deny' });
  });

  it('never writes a blocked script, even for an oversized command', async () => {
    const c = capture();
    await main(['approval', 'check', '--json', '--', `echo ${'x'.repeat(5000)}`], c.io);
    expect(JSON.parse(c.stdout())).toMatchObject({ stage: 'parser_limit' });
    expect(existsSync(join(process.env.HERMES_HOME as string, 'cache'))).toBe(false);
    expect(readdirSync(process.env.HERMES_HOME as string)).toEqual([]);
  });

  it.each([
    [['approval'], "missing subcommand 'check'"],
    [['approval', 'check'], 'no command given'],
    [['approval', 'check', '--yaml', '--', 'ls'], "unknown option '--yaml'"],
    [['approval', 'verify'], "unknown subcommand 'verify'"],
  ])('%j is a usage error naming the problem', async (argv, message) => {
    const c = capture();
    expect(await main(argv, c.io)).toBe(2);
    expect(c.stderr()).toContain(message);
  });

  it('reports a broken config.yaml instead of guessing', async () => {
    writeFileSync(join(process.env.HERMES_HOME as string, 'config.yaml'), 'approvals: [oops\n');
    const c = capture();
    expect(await main(['approval', 'check', '--', 'ls'], c.io)).toBe(1);
    expect(c.stderr()).toContain('not valid YAML');
  });

  it.skipIf(!existsSync(bin))(
    'works from the built CLI: hermes approval check --json -- <cmd> [skipped when dist/bin.js is not built]',
    async () => {
      const result = await run(['approval', 'check', '--json', '--', 'sudo rm -rf /']);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({
        decision: 'block',
        stage: 'hardline',
        patternKey: 'root_delete',
      });
      const benign = await run(['approval', 'check', '--json', '--', 'ls -la']);
      expect(JSON.parse(benign.stdout)).toMatchObject({ decision: 'allow', stage: 'no_match' });
    },
  );
});
