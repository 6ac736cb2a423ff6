import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareVersions, minVersionProblem, SDK_VERSION } from '../src/index.js';

describe('the plugin API version', () => {
  it('is the package version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(SDK_VERSION).toBe(pkg.version);
  });

  it('compares by semantic-version precedence', () => {
    const ordered = [
      '0.9.9',
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '1.0.1',
      '1.2.0',
      '1.10.0',
      '2.0.0',
    ];
    for (let i = 1; i < ordered.length; i += 1) {
      expect(compareVersions(ordered[i - 1] as string, ordered[i] as string)).toBeLessThan(0);
      expect(compareVersions(ordered[i] as string, ordered[i - 1] as string)).toBeGreaterThan(0);
    }
    expect(compareVersions('1.2.3+build.7', '1.2.3')).toBe(0);
    expect(() => compareVersions('1.2', '1.2.0')).toThrow('not a semantic version: 1.2');
  });

  it('a minVersion above the host names both versions and the fix; at or below it, nothing', () => {
    expect(minVersionProblem(undefined, '1.0.0')).toBeUndefined();
    expect(minVersionProblem('1.0.0', '1.0.0')).toBeUndefined();
    expect(minVersionProblem('0.9.0', '1.0.0')).toBeUndefined();
    expect(minVersionProblem('1.1.0', '1.0.0')).toBe(
      'needs Hermes plugin API 1.1.0 or newer, this host has 1.0.0: upgrade Hermes, or install a version of the plugin made for 1.0.0',
    );
    expect(minVersionProblem('1.0.0', '1.0.0-rc.1')).toContain('needs Hermes plugin API 1.0.0');
    expect(minVersionProblem('latest', '1.0.0')).toBe(
      'hermes.minVersion "latest" is not a semantic version such as 1.2.3',
    );
  });
});
