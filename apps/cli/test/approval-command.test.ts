/** `hermes approval check`: in-process through main, and end-to-end through the built binary. */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';
import { hermes } from './spawn-hermes.ts';

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
});

describe('hermes approval check, built', () => {
  it('works from the built CLI: hermes approval check --json -- <cmd>', async () => {
    const result = await hermes(['approval', 'check', '--json', '--', 'sudo rm -rf /']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      decision: 'block',
      stage: 'hardline',
      patternKey: 'root_delete',
    });
    const benign = await hermes(['approval', 'check', '--json', '--', 'ls -la']);
    expect(JSON.parse(benign.stdout)).toMatchObject({ decision: 'allow', stage: 'no_match' });
  });
});
