/**
 * `hermes logs --follow` in-process, where the test decides exactly when the log changes
 * relative to what the command has printed: a line appended right after the tail was shown, and
 * a rotation (rename, then a new, longer file) between two polls.
 */
import { appendFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../src/command-context.ts';
import { run } from '../src/commands/logs.ts';

interface Follow {
  /** Resolves with the exit code once the command stops. */
  readonly done: Promise<number>;
  /** Everything printed so far. */
  output(): string;
  /** Resolves when the output contains `text`; rejects after `timeoutMs` (a backstop). */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
  stop(): void;
}

/** Runs `hermes logs --follow -n 1`; `onWrite` sees each chunk as it is printed. */
function follow(onWrite: (chunk: string) => void = () => {}): Follow {
  let out = '';
  const waiters = new Set<() => void>();
  const stopper = new AbortController();
  const ctx: CommandContext = {
    hermesHome: process.env.HERMES_HOME as string,
    env: process.env,
    stdout: {
      write(chunk: string) {
        out += chunk;
        onWrite(chunk);
        for (const wake of waiters) wake();
      },
    },
    stderr: { write: () => undefined },
    signal: stopper.signal,
  };
  return {
    done: run(['--follow', '-n', '1'], ctx),
    output: () => out,
    stop: () => stopper.abort(),
    waitFor(text, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (!out.includes(text)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${JSON.stringify(text)} never appeared; printed so far: ${out}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

function agentLog(content: string): string {
  const dir = join(process.env.HERMES_HOME as string, 'logs');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'agent.log');
  writeFileSync(file, content);
  return file;
}

describe('hermes logs --follow', () => {
  it('prints a line appended the moment after the tail was shown', async () => {
    const file = agentLog('old line\nlast line\n');
    let appended = false;
    const f = follow(() => {
      // The writer appends while the command is between showing the tail and watching.
      if (!appended) {
        appended = true;
        appendFileSync(file, 'fresh line\n');
      }
    });
    await f.waitFor('fresh line\n');
    f.stop();
    expect(await f.done).toBe(0);
    expect(f.output()).toBe('last line\nfresh line\n');
  });

  it('starts from the top of a rotated-in file, even one already longer than the old', async () => {
    const file = agentLog('a\nb\n');
    const f = follow();
    await f.waitFor('b\n');
    // A logger's rotation: the old file moves aside and a new one starts, here before the next
    // poll (this test and the command share one thread, so nothing runs in between).
    renameSync(file, `${file}.1`);
    writeFileSync(file, 'rotated one\nrotated two\n');
    await f.waitFor('rotated two\n');
    f.stop();
    expect(await f.done).toBe(0);
    expect(f.output()).toBe('b\nrotated one\nrotated two\n');
  });

  it('waits for a log that does not exist yet, and stops when asked', async () => {
    const f = follow();
    agentLog('');
    appendFileSync(join(process.env.HERMES_HOME as string, 'logs', 'agent.log'), 'first\n');
    await f.waitFor('first\n');
    f.stop();
    expect(await f.done).toBe(0);
    expect(f.output()).toBe('first\n');
  });
});
