/** The file-write guard for write_file / patch. */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFileWrite } from '../src/index.ts';

const hermesHome = (): string => process.env.HERMES_HOME as string;

describe('checkFileWrite', () => {
  const options = () => ({ hermesHome: hermesHome(), home: '/home/tester', cwd: '/work/project' });

  it.each([
    '~/.ssh/authorized_keys',
    '/home/tester/.ssh/config',
    '~/.aws/credentials',
    '~/.kube/config',
    '/etc/sudoers',
    '/etc/sudoers.d/90-agent',
    '~/.netrc',
    '.env',
    'app/.env.production',
  ])('blocks %s', (path) => {
    expect(checkFileWrite(path, options())).toMatchObject({
      decision: 'block',
      stage: 'write_guard',
    });
  });

  it("blocks the agent's own credentials, pairing and MCP-token files", () => {
    for (const name of ['auth.json', '.env', 'pairing/telegram.json', 'mcp-tokens/server.json']) {
      expect(checkFileWrite(join(hermesHome(), name), options()).decision).toBe('block');
    }
  });

  it.each(['src/index.ts', '.envrc', '.env.example', '/tmp/out.txt', '~/notes.md'])(
    'allows %s',
    (path) => {
      expect(checkFileWrite(path, options())).toMatchObject({
        decision: 'allow',
        stage: 'write_guard',
      });
    },
  );

  it('follows a symlink to its target', () => {
    const ssh = join(hermesHome(), 'fakehome', '.ssh');
    mkdirSync(ssh, { recursive: true });
    const link = join(hermesHome(), 'innocent');
    symlinkSync(ssh, link);
    const verdict = checkFileWrite(join(link, 'authorized_keys'), {
      hermesHome: hermesHome(),
      home: join(hermesHome(), 'fakehome'),
    });
    expect(verdict.decision).toBe('block');
  });

  it('confines writes to the write-safe root when one is set', () => {
    const root = join(hermesHome(), 'work');
    mkdirSync(root);
    expect(
      checkFileWrite(join(root, 'a.txt'), { ...options(), writeSafeRoot: root }).decision,
    ).toBe('allow');
    expect(
      checkFileWrite(join(root, '..', 'b.txt'), { ...options(), writeSafeRoot: root }).decision,
    ).toBe('block');
  });
});
