/**
 * Which external programs this machine has, for tests that need one. A test that needs a missing
 * program is registered anyway and reported as skipped, with the program named in the reason.
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

/** Why bubblewrap cannot sandbox here, or `undefined` when it can. */
export function bwrapUnavailable(): string | undefined {
  if (!onPath('bwrap')) return 'bwrap (bubblewrap) is not on PATH';
  try {
    execFileSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true'], {
      stdio: 'ignore',
    });
    return undefined;
  } catch {
    return 'bwrap (bubblewrap) cannot create namespaces here';
  }
}

/** Why no docker engine can run containers here, or `undefined` when one answers. */
export function dockerUnavailable(): string | undefined {
  if (!onPath('docker')) return 'docker is not on PATH';
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 30_000 });
    return undefined;
  } catch {
    return '`docker info` fails: no docker engine answers here';
  }
}
