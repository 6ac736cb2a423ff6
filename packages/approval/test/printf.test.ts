/**
 * The `echo` and `printf` model that turns text piped into a shell back into the script it is,
 * checked against bash itself: each case runs in a real `bash` and must print exactly what the
 * model says.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { echoOutput, printfOutput } from '../src/feeds/printf.ts';

/** What bash's builtin prints for `name args…` (arguments passed as positional parameters). */
function bash(name: 'echo' | 'printf', args: readonly string[]): string {
  const run = spawnSync('bash', ['-c', `${name} "$@"`, 'bash', ...args], { encoding: 'utf8' });
  if (run.error) throw run.error;
  return run.stdout;
}

const PRINTF_CASES: ReadonlyArray<readonly string[]> = [
  ['rm -rf /'],
  ['rm -rf %s', '/'],
  ['%s\\n', 'rm -rf /'],
  ['%s %s %s\\n', 'rm', '-rf', '/'],
  ['%s\\n', 'ls', 'rm -rf /', 'pwd'],
  ['\\x72m -rf /'],
  ['\\162m -rf /\\n'],
  ['ls\\nrm -rf ~\\n'],
  ['%b', 'rm\\x20-rf /'],
  ['%b|%s', 'a\\cb', 'never'],
  ['%c%c -rf /', 'r', 'm'],
  ['%.2s -rf /', 'rmdir'],
  ['%5s|%-4s|', 'ab', 'c'],
  ['%q', 'rm -rf /'],
  ['%q %q', "it's", 'plain'],
  ['%q|', 'a=~', '~x', '#x', 'a#', 'a,b', 'x$y', '', 'tab\there', '\x01'],
  ['%d %i %o %x %X %u %%', '42', '-7', '8', '255', '255', '3'],
  ['%05d|%-3d|', '42', '7'],
  ['%d\\n', "'A"],
  ['%.3f %e %E', '3.14159', '12345', '0.5'],
  ['a\\tb\\\\c\\"d\\?'],
  ['\\u0041\\U00000042'],
  ['100%% sure %s'],
  ['%s-%s\\n', 'a', 'b', 'c'],
  ['no conversions', 'extra', 'args'],
  ['a\\cb'],
  ['tail\\'],
];

const ECHO_CASES: ReadonlyArray<readonly string[]> = [
  ['rm', '-rf', '/'],
  ['-n', 'rm -rf /'],
  ['-e', 'ls\\nrm -rf /'],
  ['-e', '\\x72m -rf /'],
  ['-e', '\\0162m \\c never'],
  ['-ne', 'a\\tb'],
  ['-E', '\\x72m'],
  ['-en', '-e'],
  ['-x', 'not an option'],
  ['--', 'dashes'],
  [],
];

describe('printf and echo as bash prints them', () => {
  it.each(PRINTF_CASES.map((args) => [JSON.stringify(args), args] as const))(
    'printf %s',
    (_label, args) => {
      const [format = '', ...rest] = args;
      expect(printfOutput(format, rest)).toEqual({ text: bash('printf', args), exact: true });
    },
  );

  it.each(ECHO_CASES.map((args) => [JSON.stringify(args), args] as const))(
    'echo %s',
    (_label, args) => {
      expect(echoOutput(args)).toBe(bash('echo', args));
    },
  );

  it('reports a conversion it does not model, and cuts runaway output', () => {
    expect(printfOutput('%(%s)T', []).exact).toBe(false);
    const reused = printfOutput(
      `${'x'.repeat(100)}%s`,
      Array.from({ length: 1000 }, () => 'a'),
    );
    expect(reused.exact).toBe(false);
    expect(reused.text.length).toBeLessThan(10_000);
    expect(printfOutput('%999999999s', ['x']).text.length).toBeLessThanOrEqual(256);
  });
});
