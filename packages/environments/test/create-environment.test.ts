import { describe, expect, it } from 'vitest';
import {
  createEnvironment,
  DockerEnvironment,
  LocalEnvironment,
  SandboxEnvironment,
  SshEnvironment,
} from '../src/index.js';

describe('createEnvironment', () => {
  it('defaults to local and applies the common settings', async () => {
    const environment = createEnvironment({ terminal: { cwd: '/', timeout: 1 } });
    expect(environment).toBeInstanceOf(LocalEnvironment);
    // The command would outlive any delay of the 1 s timer, so only the timeout can end it.
    const result = await environment.execute('sleep 600');
    await environment.cleanup();
    expect(result.timedOut).toBe(true);
    expect(createEnvironment(undefined)).toBeInstanceOf(LocalEnvironment);
    expect(createEnvironment({ model: 'x' })).toBeInstanceOf(LocalEnvironment);
  });

  it('chooses sandbox, ssh and docker from terminal.backend', () => {
    expect(
      createEnvironment({ terminal: { backend: 'sandbox', sandbox: { network: true } } }),
    ).toBeInstanceOf(SandboxEnvironment);
    const ssh = createEnvironment({
      terminal: { backend: 'ssh', ssh: { host: 'box', port: 2222 } },
    });
    expect(ssh).toBeInstanceOf(SshEnvironment);
    expect(ssh.describe()).toMatchObject({ backend: 'ssh', host: 'box' });
    const docker = createEnvironment({
      terminal: { backend: 'docker', docker: { image: 'alpine:3' } },
    });
    expect(docker).toBeInstanceOf(DockerEnvironment);
    expect(docker.describe()).toMatchObject({ image: 'alpine:3', network: false });
  });

  it('names every bad field', () => {
    expect(() => createEnvironment({ terminal: { backend: 'kubernetes' } })).toThrow(
      /terminal\.backend/,
    );
    expect(() => createEnvironment({ terminal: { backend: 'ssh' } })).toThrow(
      /terminal\.ssh: the ssh backend needs ssh\.host/,
    );
    expect(() => createEnvironment({ terminal: { timeout: -1, bogus: 1 } })).toThrow(
      /terminal\.timeout[\s\S]*bogus/,
    );
    expect(() => createEnvironment({ terminal: { env: { 'BAD NAME': 'x' } } })).toThrow(
      /terminal\.env/,
    );
  });
});
