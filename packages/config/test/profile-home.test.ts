/** profileHome: the default profile is the base home, a named one lives under profiles/. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { profileHome } from '../src/index.ts';

describe('profileHome', () => {
  it('keeps the base for no profile and for `default`', () => {
    expect(profileHome('/h', undefined)).toBe('/h');
    expect(profileHome('/h', 'default')).toBe('/h');
  });

  it('puts a named profile under profiles/', () => {
    expect(profileHome('/h', 'work.2')).toBe(join('/h', 'profiles', 'work.2'));
  });

  it('refuses names that could leave the folder', () => {
    expect(() => profileHome('/h', '../x')).toThrow(/invalid profile name '\.\.\/x'/);
    expect(() => profileHome('/h', 'a/b')).toThrow(/invalid profile name/);
  });
});
