import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  fileOperationsFor,
  LocalEnvironment,
  LocalFileOperations,
  ShellFileOperations,
} from '../src/index.js';
import { describeFileOperationsContract } from '../src/testing.js';

function fixture(kind: 'fs' | 'shell') {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-files-'));
  const environment = new LocalEnvironment({ cwd: dir, loginShellEnv: false });
  const files =
    kind === 'fs' ? fileOperationsFor(environment) : new ShellFileOperations(environment);
  return {
    files,
    dir,
    cleanup: async () => {
      await environment.cleanup();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describeFileOperationsContract('local fs', () => fixture('fs'));
describeFileOperationsContract('shell over local execute()', () => fixture('shell'));

describe('fileOperationsFor', () => {
  it('uses fs for local and resolves relative paths against the current cwd', async () => {
    const { files, dir, cleanup } = fixture('fs');
    try {
      expect(files).toBeInstanceOf(LocalFileOperations);
      const environment = (files as LocalFileOperations).environment as LocalEnvironment;
      await environment.execute('mkdir sub && cd sub');
      await files.writeText('rel.txt', 'here');
      const shell = new ShellFileOperations(environment);
      expect(await shell.readWhole('rel.txt')).toBe('here');
      expect(await shell.readWhole(join(dir, 'sub', 'rel.txt'))).toBe('here');
    } finally {
      await cleanup();
    }
  });
});
