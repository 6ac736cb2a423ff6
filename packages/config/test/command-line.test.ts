import { describe, expect, it } from 'vitest';
import { type OptionTable, scanArgs, UsageError } from '../src/index.ts';

const options: OptionTable = {
  help: { type: 'boolean', short: 'h' },
  profile: { type: 'string', short: 'p' },
};

describe('scanArgs', () => {
  it('reads options up to the command and leaves the rest untouched', () => {
    expect(scanArgs(['-p', 'work', 'chat', '-q', '--weird', 'hi'], options)).toEqual({
      values: { profile: 'work' },
      command: 'chat',
      rest: ['-q', '--weird', 'hi'],
    });
  });

  it('accepts --opt=value, -pvalue and -p=value', () => {
    expect(scanArgs(['--profile=a'], options).values).toEqual({ profile: 'a' });
    expect(scanArgs(['-pb'], options).values).toEqual({ profile: 'b' });
    expect(scanArgs(['-p=c'], options).values).toEqual({ profile: 'c' });
  });

  it('takes an option-like value only when written inline', () => {
    expect(scanArgs(['--profile=-x'], options).values).toEqual({ profile: '-x' });
    expect(() => scanArgs(['--profile', '-x'], options)).toThrow(UsageError);
  });

  it('treats everything after -- as positional', () => {
    expect(scanArgs(['--', '--help', 'x'], options)).toEqual({
      values: {},
      command: '--help',
      rest: ['x'],
    });
  });

  it('reports no command when there is none', () => {
    expect(scanArgs(['-h'], options)).toEqual({
      values: { help: true },
      command: undefined,
      rest: [],
    });
  });

  it('names an unknown short option inside a group', () => {
    expect(() => scanArgs(['-hz'], options)).toThrow("unknown option '-z'");
  });
});
