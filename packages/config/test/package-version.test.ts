import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hasErrorCode } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { readPackageVersion } from '../src/index.ts';

function manifestAt(content: string): URL {
  const path = join(process.env.HERMES_HOME as string, 'package.json');
  writeFileSync(path, content);
  return pathToFileURL(path);
}

describe('readPackageVersion', () => {
  it('reads the version field', () => {
    expect(readPackageVersion(manifestAt('{"version":"1.2.3"}'), 'x')).toBe('1.2.3');
  });

  it('reads this package’s own manifest', () => {
    const own = new URL('../package.json', import.meta.url);
    expect(readPackageVersion(own, '@hermes/config')).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('names the package and the file when the version is missing or empty', () => {
    for (const content of ['{}', '{"version":""}', '{"version":3}', '[]']) {
      let caught: unknown;
      try {
        readPackageVersion(manifestAt(content), '@hermes/demo');
      } catch (error) {
        caught = error;
      }
      expect(hasErrorCode(caught, 'config.bad_manifest')).toBe(true);
      expect((caught as Error).message).toMatch(
        /@hermes\/demo: its package\.json \(.*\) has no "version"/,
      );
    }
  });
});
