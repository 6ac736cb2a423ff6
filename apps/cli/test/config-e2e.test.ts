/** End-to-end: config set/get round trip through the built binary; the key lands in .env. */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hermes } from './spawn-hermes.ts';

describe('built hermes config', () => {
  it('sets and gets a setting, and stores an API key in .env (0600), never config.yaml', async () => {
    const home = process.env.HERMES_HOME as string;
    expect((await hermes(['config', 'set', 'model.default', 'gpt-4o-mini'])).code).toBe(0);
    expect(await hermes(['config', 'get', 'model.default'])).toMatchObject({
      code: 0,
      stdout: 'gpt-4o-mini\n',
    });
    const key = 'sk-e2e-0123456789abcdefghij';
    const set = await hermes(['config', 'set', 'OPENAI_API_KEY', key]);
    expect(set.code).toBe(0);
    expect(set.stdout).not.toContain(key);
    expect(readFileSync(join(home, '.env'), 'utf8')).toBe(`OPENAI_API_KEY=${key}\n`);
    expect(statSync(join(home, '.env')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(home, 'config.yaml'), 'utf8')).not.toContain(key);
    expect((await hermes(['config', 'get', 'OPENAI_API_KEY'])).stdout).toBe('sk-…ghij\n');
    const show = await hermes(['config', 'show'], { OPENAI_API_KEY: '' });
    expect(show.stdout).toContain('# in use: provider openai, model gpt-4o-mini');
  });
});
