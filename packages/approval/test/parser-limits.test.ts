/** Parser limits and the saved blocked script. */
import {
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blockedScriptsDir, COMMAND_LIMITS, checkCommand } from '../src/index.ts';

const home = (): string => process.env.HERMES_HOME as string;

describe('parser limits', () => {
  it('blocks a command over 128,000 characters and saves it as a runnable script', () => {
    const command = `echo ${'a'.repeat(130_000)}`;
    const verdict = checkCommand(command, { hermesHome: home() });
    expect(verdict).toMatchObject({ decision: 'block', stage: 'parser_limit' });
    const [name] = readdirSync(blockedScriptsDir(home()));
    expect(name).toMatch(/^blocked-\d+-[0-9a-f]{8}\.sh$/);
    const path = join(blockedScriptsDir(home()), name as string);
    expect(verdict.recovery).toContain(`bash ${path}`);
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith('#!/usr/bin/env bash\n# Saved by the Hermes command guard')).toBe(true);
    expect(text).toContain(command);
    expect(statSync(path).mode & 0o100).toBe(0o100);
  });

  it('blocks over 4,096 characters with no separator, and over 25,000 segments', () => {
    expect(checkCommand(`echo ${'b'.repeat(5000)}`, { hermesHome: home() }).stage).toBe(
      'parser_limit',
    );
    expect(checkCommand(`echo ${'b'.repeat(4000)}; ls`, { hermesHome: home() }).stage).toBe(
      'no_match',
    );
    expect(checkCommand('true;'.repeat(25_001), { hermesHome: home() }).stage).toBe('parser_limit');
  });

  it('still reports a hardline hit first when the command can be parsed', () => {
    // Hermes counts separators even inside quotes: 25,001 segments, yet only two commands.
    const command = `echo '${'x|'.repeat(25_001)}'; rm -rf /`;
    expect(checkCommand(command, { hermesHome: home() }).stage).toBe('hardline');
  });

  it('stops at 10,000 commands, or 2,500 that need the rules, and saves no script', () => {
    const cases = [
      'true;'.repeat(COMMAND_LIMITS.commands + 1),
      'rm -rf /tmp/x;'.repeat(COMMAND_LIMITS.judged + 1),
      `echo "${'$(c)|'.repeat(COMMAND_LIMITS.commands)}"`,
      `eval "${'$(c);'.repeat(COMMAND_LIMITS.judged)}"`,
    ];
    for (const command of cases) {
      const verdict = checkCommand(command, { hermesHome: home() });
      expect(verdict).toMatchObject({ decision: 'block', stage: 'parser_limit' });
      expect(verdict.reason).toContain('commands');
      expect(verdict.recovery).toContain('Split the work');
    }
    expect(existsSync(blockedScriptsDir(home()))).toBe(false);
    // Just under the limits, the same shapes are analysed in full.
    expect(checkCommand('rm -rf /tmp/x;'.repeat(COMMAND_LIMITS.judged)).stage).toBe(
      'dangerous_pattern',
    );
    expect(checkCommand('true;'.repeat(COMMAND_LIMITS.commands - 1)).stage).toBe('no_match');
  });

  it('reports a hardline hit seen before the command limit stopped the analysis', () => {
    const command = `rm -rf /; ${'rm -rf /tmp/x;'.repeat(COMMAND_LIMITS.judged + 1)}`;
    expect(checkCommand(command, { saveBlockedScripts: false }).stage).toBe('hardline');
  });

  it('prunes saved scripts older than seven days when saving a new one', () => {
    const dir = blockedScriptsDir(home());
    checkCommand(`echo ${'c'.repeat(5000)}`, { hermesHome: home() });
    const old = join(dir, 'blocked-1000-deadbeef.sh');
    writeFileSync(old, 'echo old\n');
    const eightDaysAgo = (Date.now() - 8 * 24 * 3600 * 1000) / 1000;
    utimesSync(old, eightDaysAgo, eightDaysAgo);
    checkCommand(`echo ${'d'.repeat(5000)}`, { hermesHome: home() });
    expect(existsSync(old)).toBe(false);
    expect(readdirSync(dir)).toHaveLength(2);
  });

  it('does not write anything when saving is turned off', () => {
    const verdict = checkCommand(`echo ${'e'.repeat(5000)}`, {
      hermesHome: home(),
      saveBlockedScripts: false,
    });
    expect(verdict.recovery).toContain('script file');
    expect(existsSync(blockedScriptsDir(home()))).toBe(false);
  });

  it('treats nesting beyond the parser depth as a parser limit', () => {
    const deep = `${'$('.repeat(200)}ls${')'.repeat(200)}`;
    expect(checkCommand(deep, { saveBlockedScripts: false }).stage).toBe('parser_limit');
  });
});
