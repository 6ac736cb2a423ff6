/**
 * Brace expansion of `rm` targets: every alternative a protected location can hide in is
 * produced, and none longer than the kernel's PATH_MAX (it names no file), so a huge word with
 * many alternatives is not copied once per alternative.
 */
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../src/index.ts';
import { expandBraces } from '../src/rules/paths.ts';

describe('brace expansion of paths', () => {
  it('expands every alternative, left to right', () => {
    expect(expandBraces('/{etc,usr}/x')).toEqual(['/etc/x', '/usr/x']);
    expect(expandBraces('/{a,b}{1,2}')).toEqual(['/a1', '/a2', '/b1', '/b2']);
    expect(expandBraces('/plain/path')).toEqual(['/plain/path']);
  });

  it('leaves out expansions longer than PATH_MAX, and keeps the short ones beside them', () => {
    const huge = 'x'.repeat(100_000);
    const spellings = expandBraces(`/{${huge},etc}{a,b,c,d,e,f,g,h}${huge}{1,2}`);
    expect(spellings).toEqual([]);
    expect(expandBraces(`/{${huge},etc}`)).toEqual(['/etc']);
    expect(
      checkCommand(`rm -rf /{${'a'.repeat(5000)},etc}`, { saveBlockedScripts: false }),
    ).toMatchObject({
      decision: 'block',
      stage: 'hardline',
      patternKey: 'system_dir_delete',
    });
  });
});
