/**
 * The addon cache: one entry per exact platform, Node release and addon version; a restore puts
 * the file where `bindings` looks first; a store never leaves half a file under the key.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  addonCacheDir,
  addonCacheKey,
  BUILT_ADDON,
  restoreAddon,
  storeAddon,
} from '../src/addon-cache.mjs';

let scratch: string | undefined;
afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

function dir(): string {
  scratch ??= mkdtempSync(join(tmpdir(), 'node-matrix-cache-'));
  return mkdtempSync(join(scratch, 'd-'));
}

describe('addon cache', () => {
  it('keys an entry by platform, architecture, exact release, ABI and addon version', () => {
    const host = { platform: 'linux', arch: 'x64' };
    const key = addonCacheKey({ version: '24.22.3', abi: '137' }, '12.11.1', host);
    expect(key).toBe('linux-x64-node-24.22.3-abi-137-better-sqlite3-12.11.1.node');
    expect(addonCacheKey({ version: '24.22.4', abi: '137' }, '12.11.1', host)).not.toBe(key);
    expect(addonCacheKey({ version: '24.22.3', abi: '137' }, '12.11.2', host)).not.toBe(key);
    expect(
      addonCacheKey({ version: '24.22.3', abi: '137' }, '12.11.1', { ...host, arch: 'arm64' }),
    ).not.toBe(key);
  });

  it('lives in NODE_MATRIX_CACHE, else XDG_CACHE_HOME, else ~/.cache', () => {
    expect(addonCacheDir({ NODE_MATRIX_CACHE: '/c' })).toBe('/c');
    expect(addonCacheDir({ XDG_CACHE_HOME: '/x' })).toBe(join('/x', 'hermes-node-matrix'));
    expect(addonCacheDir({})).toMatch(/\.cache\/hermes-node-matrix$/);
  });

  it('misses when empty, then restores what a build stored, where bindings looks first', () => {
    const cache = join(dir(), 'cache');
    const built = dir();
    const fresh = dir();
    const key = 'k.node';
    expect(restoreAddon(cache, key, fresh)).toBe(false);
    mkdirSync(join(built, 'build', 'Release'), { recursive: true });
    writeFileSync(join(built, BUILT_ADDON), 'compiled bytes');
    storeAddon(cache, key, built);
    expect(readdirSync(cache)).toEqual([key]);
    expect(restoreAddon(cache, key, fresh)).toBe(true);
    expect(readFileSync(join(fresh, 'build', 'Release', 'better_sqlite3.node'), 'utf8')).toBe(
      'compiled bytes',
    );
  });
});
