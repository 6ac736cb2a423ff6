/**
 * A backend that implements only the required members gets a safe default for every optional
 * one. Adding a member to the class without listing it (and testing its default) here fails.
 */
import { describe, expect, it } from 'vitest';
import { type ExecuteResult, ExecutionEnvironment } from '../src/index.js';

class OnlyRequired extends ExecutionEnvironment {
  readonly name = 'bare';
  async execute(): Promise<ExecuteResult> {
    return { output: '', exitCode: 0, timedOut: false, interrupted: false, cwd: '/' };
  }
  async cleanup(): Promise<void> {}
}

const OPTIONAL_MEMBERS = ['describe', 'syncFilesIn', 'syncFilesOut'];

describe('ExecutionEnvironment defaults', () => {
  it('lists every optional member here', () => {
    const own = Object.getOwnPropertyNames(ExecutionEnvironment.prototype).filter(
      (name) => name !== 'constructor',
    );
    expect(own.sort()).toEqual([...OPTIONAL_MEMBERS].sort());
  });

  it('describe() defaults to the backend name', () => {
    expect(new OnlyRequired().describe()).toEqual({ backend: 'bare' });
  });

  it('file sync hooks default to doing nothing', async () => {
    const environment = new OnlyRequired();
    await expect(environment.syncFilesIn()).resolves.toBeUndefined();
    await expect(environment.syncFilesOut()).resolves.toBeUndefined();
  });
});
