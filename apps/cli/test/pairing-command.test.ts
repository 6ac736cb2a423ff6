/**
 * `hermes pairing list|approve|revoke` over the files the gateway writes: a code the gateway
 * issued is approved here and the gateway's own check sees the user at once; revoke takes it back.
 */
import { readdirSync } from 'node:fs';
import { PairingStore } from '@hermes/gateway';
import { describe, expect, it } from 'vitest';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';

const home = () => process.env.HERMES_HOME as string;

async function pairing(argv: string[]) {
  const c = capture();
  const code = await main(['pairing', ...argv], c.io);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

/** The gateway's side: a stranger asks in a DM and gets a code. */
async function issueCode(platform: string, userId: string, userName?: string): Promise<string> {
  const issued = await new PairingStore(home()).issue(platform, userId, userName);
  if (issued.kind !== 'code') throw new Error(`expected a code, got ${issued.kind}`);
  return issued.code;
}

describe('hermes pairing', () => {
  it('lists nothing on a fresh home without creating files', async () => {
    const result = await pairing(['list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('No codes waiting.');
    expect(result.stdout).toContain('No approved users.');
    expect(readdirSync(home())).not.toContain('pairing');
  });

  it('lists a waiting code, approves it typed loosely, and the gateway then knows the user', async () => {
    const code = await issueCode('telegram', '42', 'alice');
    const listed = await pairing(['list']);
    expect(listed.stdout).toMatch(
      new RegExp(`telegram {2}${code} {2}42 \\(alice\\) {2}expires in 60 min`),
    );

    const typed = `${code.slice(0, 4).toLowerCase()}-${code.slice(4)}`;
    const approved = await pairing(['approve', 'telegram', typed]);
    expect(approved).toMatchObject({ code: 0, stderr: '' });
    expect(approved.stdout).toContain('Approved 42 (alice) on telegram');
    expect(await new PairingStore(home()).isApproved('telegram', '42')).toBe(true);
    expect(await new PairingStore(home()).isApproved('slack', '42')).toBe(false);

    const json = JSON.parse((await pairing(['list', '--json'])).stdout);
    expect(json.pending).toEqual([]);
    expect(json.approved).toMatchObject([
      { platform: 'telegram', userId: '42', userName: 'alice' },
    ]);
  });

  it('refuses a code that is not waiting, or one for another platform, with exit 1', async () => {
    const code = await issueCode('telegram', '7');
    const wrong = await pairing(['approve', 'telegram', 'ZZZZZZZZ']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("no code 'ZZZZZZZZ' is waiting on telegram");
    const elsewhere = await pairing(['approve', 'slack', code]);
    expect(elsewhere.code).toBe(1);
    expect(await new PairingStore(home()).isApproved('slack', '7')).toBe(false);
    expect(await new PairingStore(home()).isApproved('telegram', '7')).toBe(false);
    // A used code cannot be used twice.
    expect((await pairing(['approve', 'telegram', code])).code).toBe(0);
    expect((await pairing(['approve', 'telegram', code])).code).toBe(1);
  });

  it('revokes an approved user, and says so when there was none', async () => {
    const code = await issueCode('discord', '99');
    await pairing(['approve', 'discord', code]);
    const revoked = await pairing(['revoke', 'discord', '99']);
    expect(revoked).toMatchObject({ code: 0 });
    expect(revoked.stdout).toContain('Revoked 99 on discord');
    expect(await new PairingStore(home()).isApproved('discord', '99')).toBe(false);
    const again = await pairing(['revoke', 'discord', '99']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('99 is not an approved user on discord');
  });

  it('names a bad command line and exits 2', async () => {
    expect(await pairing(['approve', 'telegram'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("'approve' needs <platform> <code>"),
    });
    expect(await pairing(['revoke', 'a', 'b', 'c'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("unexpected argument 'c'"),
    });
    expect(await pairing(['frob'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("unknown subcommand 'frob'"),
    });
    const help = await pairing(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('approve <platform> <code>');
  });
});
