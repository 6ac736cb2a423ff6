/**
 * Which external programs this machine has, for tests that need one. A test that needs a missing
 * program is registered anyway and reported as skipped, the program named in its title, e.g.
 * `it.skipIf(!hasRg)(`… ${needs('rg')}`)`.
 */
import { execFileSync } from 'node:child_process';

/** True when `name` is a command `/bin/sh` finds on PATH. */
export function onPath(name: string): boolean {
  try {
    execFileSync('/bin/sh', ['-c', `command -v '${name}'`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The title suffix of a test that needs `program`: empty when it is on PATH, else why it skips. */
export function needs(program: string): string {
  return onPath(program) ? '' : ` (skipped: ${program} is not on PATH)`;
}
