/** `hermes memory show|edit` over the built-in MEMORY.md / USER.md store. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';

const home = () => process.env.HERMES_HOME as string;

async function memory(argv: string[], env?: Record<string, string | undefined>) {
  const c = capture(env);
  const code = await main(['memory', ...argv], c.io);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

describe('hermes memory', () => {
  it('shows both files with usage against the configured limits', async () => {
    mkdirSync(join(home(), 'memories'));
    writeFileSync(
      join(home(), 'memories', 'MEMORY.md'),
      'Project uses pnpm\n§\nTests run with vitest',
    );
    writeFileSync(join(home(), 'config.yaml'), 'memory:\n  user_char_limit: 100\n');
    const result = await memory(['show']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('MEMORY.md — 41/2,200 chars (2%), 2 entries');
    expect(result.stdout).toContain('Project uses pnpm');
    expect(result.stdout).toContain('USER.md — 0/100 chars (0%), 0 entries');
    expect(result.stdout).toContain('(empty)');
  });

  it('edit opens $EDITOR on the file and reports the new usage', async () => {
    const script = "require('fs').appendFileSync(process.argv[1], 'Prefers tabs over spaces')";
    const editor = `'${process.execPath}' -e "${script}"`;
    const result = await memory(['edit', 'user'], { ...process.env, EDITOR: editor, VISUAL: '' });
    expect(result.code).toBe(0);
    expect(readFileSync(join(home(), 'memories', 'USER.md'), 'utf8')).toBe(
      'Prefers tabs over spaces',
    );
    expect(result.stdout).toContain('USER.md — 24/1,375 chars');
  });

  it('reports a failing editor and rejects unknown files', async () => {
    const failing = await memory(['edit'], { ...process.env, EDITOR: 'false', VISUAL: '' });
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain('exited with 1');
    expect((await memory(['edit', 'diary'])).code).toBe(2);
  });
});
