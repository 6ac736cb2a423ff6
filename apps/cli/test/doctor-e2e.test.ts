/** End-to-end: the built binary's `hermes doctor` on a broken config.yaml. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hermes } from './spawn-hermes.ts';

describe('built hermes doctor', () => {
  it('names the key path and line of a broken config.yaml and exits 1', async () => {
    writeFileSync(
      join(process.env.HERMES_HOME as string, 'config.yaml'),
      '# settings\nmodel:\n  provider: openai\n  base_url: nowhere\n',
    );
    const result = await hermes(['doctor', '--offline']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /✗ config\.yaml\s+model\.base_url \(line 4\): expected an http\(s\) URL/,
    );
    expect(result.stdout).toContain('fix: edit');
    expect(result.stderr).toBe('');
  });

  it('names the line of a YAML syntax error', async () => {
    writeFileSync(
      join(process.env.HERMES_HOME as string, 'config.yaml'),
      'model:\n  provider: [openai\nagent: {}\n',
    );
    const result = await hermes(['doctor', '--offline']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ config\.yaml\s+line \d+: not valid YAML/);
  });
});
