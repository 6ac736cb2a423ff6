/** One finding of `hermes doctor`. */

/** `ok` passed, `warn` works but should be fixed, `fail` breaks something, `skip` not run. */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** What one check found, and for a problem, how to fix it. */
export interface CheckResult {
  readonly name: string;
  readonly status: CheckStatus;
  /** What was found; may span lines (one problem per line). */
  readonly detail: string;
  /** What to do about a `warn` or `fail`. */
  readonly fix?: string;
}

const MARKS: Readonly<Record<CheckStatus, string>> = { ok: '✓', warn: '!', fail: '✗', skip: '-' };

/** The check as printed: mark, name, detail, then the fix indented. */
export function renderCheck(check: CheckResult): string {
  const [first = '', ...more] = check.detail.split('\n');
  const lines = [`  ${MARKS[check.status]} ${check.name.padEnd(14)} ${first}`];
  for (const line of more) lines.push(`  ${' '.repeat(17)}${line}`);
  if (check.fix && (check.status === 'fail' || check.status === 'warn')) {
    lines.push(`  ${' '.repeat(17)}fix: ${check.fix}`);
  }
  return lines.join('\n');
}
