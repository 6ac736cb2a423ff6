/**
 * RestartGuard: three starts with cut-off turns, each within 300 s of the one before, skip the
 * automatic resume once; the state lives in HERMES_HOME/gateway/restart_loop.json and a broken
 * file never blocks a resume. Injected clock; every guard is a fresh instance, as after a restart.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RestartGuard } from '../src/index.js';

const home = () => process.env.HERMES_HOME ?? '';
const file = () => join(home(), 'gateway', 'restart_loop.json');

/** Each call is a new process starting at `at` (seconds) and finding cut-off turns. */
const startAt = (at: number) => new RestartGuard(home(), () => at * 1_000).shouldResume();

describe('RestartGuard', () => {
  it('skips the resume at the third start in a chain, once, then resumes again', () => {
    expect([startAt(0), startAt(10), startAt(20)]).toEqual([true, true, false]);
    expect(startAt(30)).toBe(true);
    expect(startAt(40)).toBe(true);
    expect(startAt(50)).toBe(false);
  });

  it('counts only starts each within 300 s of the previous one', () => {
    expect(startAt(0)).toBe(true);
    expect(startAt(300)).toBe(true); // exactly 300 s: still a chain
    expect(startAt(601)).toBe(true); // 301 s later: a new chain starts here
    expect(startAt(900)).toBe(true);
    expect(startAt(1_200)).toBe(false);
  });

  it('slow restarts never trip it', () => {
    for (let i = 0; i < 10; i++) expect(startAt(i * 400)).toBe(true);
  });

  it('records the starts in HERMES_HOME/gateway/restart_loop.json', () => {
    startAt(5);
    startAt(6);
    const saved = JSON.parse(readFileSync(file(), 'utf8')) as { starts: number[] };
    expect(saved.starts).toEqual([5_000, 6_000]);
  });

  it('resumes when the file is broken, and repairs it', () => {
    mkdirSync(join(home(), 'gateway'), { recursive: true });
    for (const junk of ['{not json', '[]', '{"starts": "x"}', '{"starts": [1, "a", null]}', '']) {
      writeFileSync(file(), junk);
      expect(startAt(1)).toBe(true);
    }
    writeFileSync(file(), '{not json');
    expect([startAt(100), startAt(110), startAt(120)]).toEqual([true, true, false]);
  });

  it('resumes when the state cannot be written', () => {
    // A directory where the file should be: unreadable and unwritable as a file.
    mkdirSync(file(), { recursive: true });
    expect([startAt(0), startAt(1), startAt(2), startAt(3)]).toEqual([true, true, true, true]);
  });

  it('ignores starts recorded in the future (a clock set back)', () => {
    mkdirSync(join(home(), 'gateway'), { recursive: true });
    writeFileSync(file(), JSON.stringify({ starts: [9_000_000, 9_000_100] }));
    expect(startAt(0)).toBe(true);
    expect(startAt(1)).toBe(true);
  });
});
