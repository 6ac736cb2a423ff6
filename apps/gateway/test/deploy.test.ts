/**
 * The deploy files (docker cannot run here, so this checks what can be checked without it): the
 * systemd unit waits longer than the gateway's drain before it kills, runs hardened as its own
 * user with only the data home writable; the Dockerfile builds the native addon in a build
 * stage and runs as a non-root user with the data home as a volume.
 */
import { readFileSync } from 'node:fs';
import { GATEWAY_DEFAULTS, INTERRUPT_GRACE_MS } from '@hermes/gateway';
import { describe, expect, it } from 'vitest';

const read = (name: string) => readFileSync(new URL(`../deploy/${name}`, import.meta.url), 'utf8');

/** `Key=value` lines of a unit file (comments dropped); a key given twice keeps every value. */
function directives(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (match)
      out.set(match[1] as string, [...(out.get(match[1] as string) ?? []), match[2] as string]);
  }
  return out;
}

describe('deploy/hermes-gateway.service', () => {
  const unit = directives(read('hermes-gateway.service'));
  const one = (key: string) => unit.get(key)?.[0];

  it('stops with SIGTERM and waits longer than the drain and the interrupt grace', () => {
    expect(one('KillSignal')).toBe('SIGTERM');
    const drainSeconds = (GATEWAY_DEFAULTS.drainTimeoutMs + INTERRUPT_GRACE_MS) / 1_000;
    expect(Number(one('TimeoutStopSec'))).toBeGreaterThan(drainSeconds);
  });

  it('restarts on failure but not on a configuration error (exit 2)', () => {
    expect(one('Restart')).toBe('on-failure');
    expect(one('RestartPreventExitStatus')).toBe('2');
  });

  it('runs as a dedicated user with only HERMES_HOME writable and keys from a file', () => {
    expect(one('User')).toBe('hermes');
    expect(unit.get('Environment')).toContain('HERMES_HOME=/var/lib/hermes');
    expect(one('ReadWritePaths')).toBe('/var/lib/hermes');
    expect(one('ProtectSystem')).toBe('strict');
    expect(one('NoNewPrivileges')).toBe('true');
    expect(one('EnvironmentFile')).toMatch(/gateway\.env$/);
    expect(one('ExecStart')).toMatch(/apps\/gateway\/dist\/bin\.js run$/);
  });
});

describe('deploy/Dockerfile', () => {
  const text = read('Dockerfile');
  const stages = text.split(/^FROM /m).slice(1);

  it('builds in a node slim stage with a compiler, and runs from another', () => {
    expect(stages).toHaveLength(2);
    expect(stages[0]).toMatch(/^node:(22|24)-slim AS build/);
    expect(stages[0]).toMatch(/g\+\+/);
    expect(stages[1]).toMatch(/^node:(22|24)-slim\n/);
    expect(stages[1]).toContain('COPY --from=build');
  });

  it('runs as a non-root user with HERMES_HOME as a volume, listening beyond loopback', () => {
    const runtime = stages[1] as string;
    expect(runtime).toMatch(/^USER hermes$/m);
    expect(runtime).toMatch(/HERMES_HOME=\/data/);
    expect(runtime).toMatch(/API_SERVER_HOST=0\.0\.0\.0/);
    expect(runtime).toMatch(/^VOLUME \/data$/m);
    expect(runtime).toMatch(/^EXPOSE 8642$/m);
    expect(runtime).toMatch(/^STOPSIGNAL SIGTERM$/m);
    expect(runtime).toMatch(/^ENTRYPOINT \["node", "\/app\/apps\/gateway\/dist\/bin\.js"\]$/m);
  });
});
