import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveHermesHome } from '../src/index.ts';

describe('resolveHermesHome', () => {
  it('uses HERMES_HOME when set', () => {
    expect(resolveHermesHome({ HERMES_HOME: '/srv/hermes' })).toBe(resolve('/srv/hermes'));
  });

  it('defaults to ~/.hermes when unset or blank', () => {
    expect(resolveHermesHome({})).toBe(join(homedir(), '.hermes'));
    expect(resolveHermesHome({ HERMES_HOME: '' })).toBe(join(homedir(), '.hermes'));
    expect(resolveHermesHome({ HERMES_HOME: '  ' })).toBe(join(homedir(), '.hermes'));
  });

  it('expands a leading ~ and makes relative paths absolute', () => {
    expect(resolveHermesHome({ HERMES_HOME: '~/h' })).toBe(join(homedir(), 'h'));
    expect(resolveHermesHome({ HERMES_HOME: '~' })).toBe(homedir());
    expect(resolveHermesHome({ HERMES_HOME: 'rel/home' })).toBe(resolve('rel/home'));
  });

  it('never creates the directory', () => {
    const path = join(process.env.HERMES_HOME as string, 'fresh');
    expect(resolveHermesHome({ HERMES_HOME: path })).toBe(path);
    expect(existsSync(path)).toBe(false);
  });

  it('reads the per-test HERMES_HOME from process.env', () => {
    expect(resolveHermesHome(process.env)).toBe(process.env.HERMES_HOME);
  });
});
