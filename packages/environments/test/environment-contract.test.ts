import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalEnvironment } from '../src/index.js';
import { describeExecutionEnvironmentContract } from '../src/testing.js';

describeExecutionEnvironmentContract('local', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-local-'));
  return {
    environment: new LocalEnvironment({ cwd: dir }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
});
