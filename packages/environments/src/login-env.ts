/** The login shell's environment, captured once per process and shell. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

const cache = new Map<string, Promise<Record<string, string>>>();

/** How long a slow profile may take before we fall back to this process's environment. */
const CAPTURE_TIMEOUT_MS = 5_000;

/**
 * The variables a login shell sets up (PATH additions from profiles, version managers), so
 * commands see what the user sees in a terminal. Captured once per shell and cached; when the
 * profile fails or hangs, this process's own environment is used instead.
 */
export function loginEnvironment(shell = defaultLoginShell()): Promise<Record<string, string>> {
  let pending = cache.get(shell);
  if (!pending) {
    pending = capture(shell);
    cache.set(shell, pending);
  }
  return pending;
}

function defaultLoginShell(): string {
  return existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
}

function capture(shell: string): Promise<Record<string, string>> {
  const fallback = stringEnv(process.env);
  return new Promise((resolve) => {
    execFile(
      shell,
      ['-l', '-c', 'env -0'],
      { timeout: CAPTURE_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout) => {
        if (error) return resolve(fallback);
        const captured: Record<string, string> = {};
        for (const entry of stdout.split('\0')) {
          const eq = entry.indexOf('=');
          if (eq > 0) captured[entry.slice(0, eq)] = entry.slice(eq + 1);
        }
        resolve(captured);
      },
    );
  });
}

/** This process's `HERMES_*` variables, which win over whatever a profile exported. */
export function hermesVariables(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('HERMES_')));
}

/** `process.env` without its undefined entries. */
export function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  return out;
}
