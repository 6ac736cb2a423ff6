import { isHermesError, VALIDATION_ERROR_CODE, ValidationError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { definePlugin, PluginManifestSchema } from '../src/index.js';

const register = () => {};

function manifestError(manifest: unknown): ValidationError {
  try {
    definePlugin({ manifest: manifest as never, register });
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('definePlugin accepted a bad manifest');
}

describe('PluginManifestSchema', () => {
  it('accepts a minimal manifest and fills in the defaults', () => {
    expect(PluginManifestSchema.parse({ name: 'hermes-plugin-weather', version: '1.0.0' })).toEqual(
      {
        name: 'hermes-plugin-weather',
        version: '1.0.0',
        hermes: {},
        kind: 'general',
      },
    );
  });

  it('accepts a full manifest with a scoped name and a prerelease version', () => {
    const manifest = {
      name: '@acme/hermes-jira',
      version: '2.0.0-beta.3+build.7',
      description: 'Jira tools',
      hermes: { minVersion: '0.2.0' },
      kind: 'tool' as const,
    };
    expect(PluginManifestSchema.parse(manifest)).toEqual(manifest);
  });

  it('rejects a bad name, naming the field', () => {
    for (const name of ['Hermes Weather', '', '@scope', '.hidden', 'x'.repeat(215)]) {
      const error = manifestError({ name, version: '1.0.0' });
      expect(error.code).toBe(VALIDATION_ERROR_CODE);
      expect(isHermesError(error)).toBe(true);
      expect(error.issues.map((issue) => issue.path)).toEqual(['name']);
      expect(error.message).toMatch(/Invalid plugin manifest:\n {2}- name: /);
    }
  });

  it('rejects a missing or malformed version, naming the field', () => {
    expect(manifestError({ name: 'p' }).message).toMatch(/- version: /);
    expect(manifestError({ name: 'p', version: '1.0' }).message).toMatch(
      /- version: version must be a semantic version such as 1\.2\.3/,
    );
  });

  it('names nested and multiple bad fields at once', () => {
    const error = manifestError({
      name: 'p',
      version: 'one',
      hermes: { minVersion: 'latest' },
      kind: 'theme',
    });
    expect(error.issues.map((issue) => issue.path).sort()).toEqual([
      'hermes.minVersion',
      'kind',
      'version',
    ]);
    expect(error.message).toMatch(/Fix the manifest passed to definePlugin\(\)/);
  });

  it('rejects a manifest that is not an object', () => {
    expect(manifestError(undefined).issues[0]?.path).toBe('(root)');
  });
});
