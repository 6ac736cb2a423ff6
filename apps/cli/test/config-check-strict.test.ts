/**
 * `hermes config check` is strict about keys (issue 18): a key no part of Hermes reads fails the
 * check with its key path, line and a "did you mean", while `chat` still starts and only warns.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';
import { configureScriptedModel, hermesHome, runHermes, workDir } from './chat-harness.ts';

async function check(yaml: string) {
  writeFileSync(join(hermesHome(), 'config.yaml'), yaml);
  const c = capture();
  const code = await main(['config', 'check'], c.io);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('hermes config check: unknown keys are errors', () => {
  it('fails on a misspelt key in a section, naming it and the key it probably meant', async () => {
    const result = await check('agent:\n  max_turns: 5\ncompression:\n  threshhold: 0.5\n');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('compression.threshhold (line 4): unknown key');
    expect(result.stdout).toContain("did you mean 'compression.threshold'?");
    // What to do about it, not only what is wrong.
    expect(result.stdout).toMatch(/hermes config unset compression\.threshhold/);
    expect(result.stdout).not.toContain('is valid');
  });

  it('fails on an unknown top-level section', async () => {
    const result = await check('compresion:\n  threshold: 0.5\n');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('compresion (line 1): unknown key');
    expect(result.stdout).toContain("did you mean 'compression'?");
  });

  it('fails on an unknown key in the approvals section, which its own loader ignores', async () => {
    const result = await check('approvals:\n  mode: smart\n  tiemout: 30\n');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      "approvals.tiemout (line 3): unknown key; did you mean 'approvals.timeout'?",
    );
  });

  it("checks plugins: with the plugin host's schema", async () => {
    const typo = await check('plugins:\n  enabeld: [hello]\n');
    expect(typo.code).toBe(1);
    expect(typo.stdout).toContain(
      "plugins.enabeld (line 2): unknown key; did you mean 'plugins.enabled'?",
    );
    const bad = await check('plugins:\n  hook_timeout_ms: soon\n');
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/plugins\.hook_timeout_ms \(line 2\):.*expected number/);
  });

  it('passes a valid config using every section Hermes reads', async () => {
    const result = await check(
      [
        'model: { provider: openai, default: gpt-4o }',
        'agent: { max_turns: 20 }',
        'memory: { provider: holographic, memory_char_limit: 3000 }',
        'context: { engine: compressor }',
        'compression: { enabled: true, threshold: 0.6, protect_first_n: 3 }',
        'approvals: { mode: smart, timeout: 30 }',
        'plugins: { enabled: [hello], config: { hello: { greeting: hi } } }',
        // Sections whose issues have not landed yet are still accepted as written.
        'mcp_servers: { fs: { command: npx } }',
        'delegation: { max_depth: 2 }',
        '',
      ].join('\n'),
    );
    expect(result.stdout).not.toContain('unknown key');
    expect(result).toMatchObject({ code: 0 });
    expect(result.stdout).toContain('is valid.');
  });

  it('still lets chat start, with the unknown key as a warning', async () => {
    server = await startScriptedServer(script().text('Started anyway.'));
    configureScriptedModel(server.url, 'compression:\n  threshhold: 0.5\n');
    const result = await runHermes(['chat', '-q', 'hi'], workDir());
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Started anyway.\n');
    expect(result.stderr).toContain(
      "warning: compression.threshhold (line 6): unknown key, ignored; did you mean 'threshold'?",
    );
  });
});
