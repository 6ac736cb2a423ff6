/** End-to-end: `hermes logs --follow` prints lines appended after it started, until Ctrl-C. */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, requireBuild } from './spawn-hermes.ts';
import { StreamText } from './stream-text.ts';

describe('built hermes logs --follow', () => {
  it('follows agent.log across a rotation and exits 0 on SIGINT', async () => {
    requireBuild();
    const logs = join(process.env.HERMES_HOME as string, 'logs');
    mkdirSync(logs);
    const file = join(logs, 'agent.log');
    writeFileSync(file, 'old line\nlast line\n');
    const child = spawn(process.execPath, [BIN, 'logs', '--follow', '-n', '1'], {
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = new StreamText(child.stdout);
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      await out.waitFor('last line\n');
      appendFileSync(file, 'fresh line\n');
      await out.waitFor('fresh line\n');
      writeFileSync(file, 'after rotation\n');
      await out.waitFor('after rotation\n');
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(out.text).toBe('last line\nfresh line\nafter rotation\n');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
