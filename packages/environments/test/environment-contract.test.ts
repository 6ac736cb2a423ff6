import { tmpdir } from 'node:os';
import { describeExecutionEnvironmentContract } from '../src/testing.js';
import { ShellEnvironment } from './support/shell-environment.js';

describeExecutionEnvironmentContract(
  '/bin/sh subprocess',
  () => new ShellEnvironment({ cwd: tmpdir() }),
);
