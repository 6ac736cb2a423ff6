/**
 * `isGatewayRunning(hermesHome)`: true while `HERMES_HOME/gateway.pid` names a live process; a
 * file left by a gateway that died, or one that holds no pid, counts as not running.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isGatewayRunning, removeGatewayPid, writeGatewayPid } from '../src/index.ts';

const home = () => process.env.HERMES_HOME as string;

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  const pid = child.pid;
  await once(child, 'exit');
  if (pid === undefined) throw new Error('no pid');
  return pid;
}

describe('gateway.pid', () => {
  it('no file: not running; this process’s pid: running; removed: not running', () => {
    expect(isGatewayRunning(home())).toBe(false);
    writeGatewayPid(home());
    expect(readFileSync(join(home(), 'gateway.pid'), 'utf8').trim()).toBe(String(process.pid));
    expect(isGatewayRunning(home())).toBe(true);
    removeGatewayPid(home());
    expect(isGatewayRunning(home())).toBe(false);
  });

  it('a stale file whose process is gone counts as not running', async () => {
    writeGatewayPid(home(), await deadPid());
    expect(isGatewayRunning(home())).toBe(false);
  });

  it('a file without a pid counts as not running', () => {
    writeFileSync(join(home(), 'gateway.pid'), 'not a pid\n');
    expect(isGatewayRunning(home())).toBe(false);
  });

  it('a stopping gateway leaves another gateway’s newer file alone', () => {
    writeGatewayPid(home(), process.pid);
    removeGatewayPid(home(), process.pid + 1);
    expect(isGatewayRunning(home())).toBe(true);
  });
});
