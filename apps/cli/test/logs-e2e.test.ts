/** End-to-end: `hermes logs --follow` prints lines appended after it started, until Ctrl-C. */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, BUILT } from './spawn-hermes.ts';

function waitFor(read: () => string, text: string, ms = 15_000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      if (read().includes(text)) {
        clearInterval(poll);
        resolve();
      } else if (Date.now() - started > ms) {
        clearInterval(poll);
        reject(new Error(`"${text}" never appeared; output so far: ${read()}`));
      }
    }, 50);
  });
}

describe.skipIf(!BUILT)(
  'built hermes logs --follow [skipped when dist/bin.js is not built: cd apps/cli && npx tsup]',
  () => {
    it('follows agent.log across a rotation and exits 0 on SIGINT', async () => {
      const logs = join(process.env.HERMES_HOME as string, 'logs');
      mkdirSync(logs);
      const file = join(logs, 'agent.log');
      writeFileSync(file, 'old line\nlast line\n');
      const child = spawn(process.execPath, [BIN, 'logs', '--follow', '-n', '1'], {
        env: process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
      });
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      await waitFor(() => out, 'last line\n');
      appendFileSync(file, 'fresh line\n');
      await waitFor(() => out, 'fresh line\n');
      writeFileSync(file, 'after rotation\n');
      await waitFor(() => out, 'after rotation\n');
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(out).not.toContain('old line');
    });
  },
);
