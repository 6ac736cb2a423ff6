import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalEnvironment } from '@hermes/environments';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { coreTools } from '../../src/core/index.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import { makeContext } from './context.js';

let dir: string;
let env: LocalEnvironment;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hermes-core-reg-'));
  env = new LocalEnvironment({ cwd: dir, loginShellEnv: false });
});
afterEach(async () => {
  await env.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

function registryWithCoreTools(): ToolRegistry {
  const registry = new ToolRegistry();
  const tools = coreTools({
    executeCode: {
      dispatch: async (name, args, ctx) => (await registry.dispatch(name, args, ctx)).content,
    },
  });
  for (const tool of tools) registry.register(tool);
  return registry;
}

describe('core tools through the registry', () => {
  it('coerces string arguments from the model and runs the tool', async () => {
    writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
    const registry = registryWithCoreTools();
    const result = await registry.dispatch(
      'read_file',
      '{"path":"a.txt","offset":"2","limit":"1"}',
      makeContext({ environment: env }),
    );
    expect(result.status).toBe('ok');
    expect(result.content).toBe('2|two\n[lines 2-2 of 3; continue with offset=3]');
  });

  it('turns a core tool failure into a sanitized tool error', async () => {
    const registry = registryWithCoreTools();
    const result = await registry.dispatch(
      'patch',
      { path: 'missing.txt', old_string: 'a', new_string: 'b' },
      makeContext({ environment: env }),
    );
    expect(result.status).toBe('error');
    expect(result.content).toMatch(/^\[TOOL_ERROR\].*missing\.txt does not exist/);
  });

  it('execute_code calls other core tools back through dispatch', async () => {
    const registry = registryWithCoreTools();
    const code = `import { write_file, read_file } from 'hermes_tools';
await write_file({ path: 'made.txt', content: 'from script\\n' });
console.log(await read_file({ path: 'made.txt' }));`;
    const result = await registry.dispatch(
      'execute_code',
      { code },
      makeContext({ environment: env }),
    );
    const out = JSON.parse(result.content);
    expect(out.status).toBe('success');
    expect(out.output).toContain('1|from script');
    expect(out.tool_calls_made).toBe(2);
    expect(readFileSync(join(dir, 'made.txt'), 'utf8')).toBe('from script\n');
  });
});
