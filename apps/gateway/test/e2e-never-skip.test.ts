/**
 * The end-to-end tests never skip: a missing build fails them with the command that builds it,
 * and no test in this folder is written to be skipped under some condition. A skipped suite
 * would let `verify` pass without ever running the binary this package ships.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILD_COMMAND, requireBuild } from './support/spawn-gateway.ts';

const testDir = fileURLToPath(new URL('.', import.meta.url));

describe('end-to-end tests', () => {
  it('fail without a build, naming the missing file and how to build it', () => {
    const missing = join(testDir, 'no-such-build', 'bin.js');
    expect(() => requireBuild([missing])).toThrow(
      `${missing} does not exist: run the build first: ${BUILD_COMMAND}`,
    );
    expect(BUILD_COMMAND).toBe(
      'cd packages/runtime && npx tsup && cd ../../apps/gateway && npx tsup',
    );
  });

  it('pass the check when the files exist', () => {
    expect(() => requireBuild([fileURLToPath(import.meta.url)])).not.toThrow();
  });

  it('are never skipped: no test here skips, conditionally or not', () => {
    // A failing `beforeAll` counts its tests as skipped, so the build check runs in each test.
    const skipping =
      /\b(?:describe|it|test|suite)\s*\.\s*(?:skip|skipIf|runIf|todo)\b|\.skip\(\)|beforeAll\([^;]*requireBuild/;
    const files = [
      ...readdirSync(testDir).map((name) => join(testDir, name)),
      ...readdirSync(join(testDir, 'support')).map((name) => join(testDir, 'support', name)),
    ];
    const offenders = files
      .filter((file) => file.endsWith('.ts') && !file.endsWith('e2e-never-skip.test.ts'))
      .filter((file) => skipping.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
