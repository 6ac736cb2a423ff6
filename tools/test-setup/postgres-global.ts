/**
 * Vitest global setup: makes a PostgreSQL server available to the stores' contract suites.
 *
 * `HERMES_TEST_POSTGRES_URL` set (`.ci/run` starts a server and sets it): used as it is.
 * Otherwise, when PostgreSQL is installed, a throwaway server is started for this run and
 * stopped after it (tools/test-setup/postgres.sh). Otherwise nothing: the PostgreSQL suites skip,
 * naming the reason, except under `CI`, where `@hermes/testkit/postgres` fails them instead.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./postgres.sh', import.meta.url));

export default function setup(): (() => void) | undefined {
  if (process.env.HERMES_TEST_POSTGRES_URL) return undefined;
  let started: string;
  try {
    started = execFileSync('bash', [script, 'start'], { encoding: 'utf8' }).trim();
  } catch (error) {
    // exit 3: not installed. Anything else is a broken installation worth seeing.
    if ((error as { status?: number }).status !== 3) {
      process.stderr.write(`tools/test-setup/postgres.sh start failed: ${String(error)}\n`);
    }
    return undefined;
  }
  const [url, dir] = started.split(' ');
  if (!url || !dir) return undefined;
  process.env.HERMES_TEST_POSTGRES_URL = url;
  return () => {
    execFileSync('bash', [script, 'stop', dir], { stdio: 'ignore' });
  };
}
