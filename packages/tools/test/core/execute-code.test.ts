import { LocalEnvironment } from '@hermes/environments';
import { describe, expect, it } from 'vitest';
import { createExecuteCodeTool } from '../../src/core/execute-code.js';
import { call, makeContext, text } from './context.js';

const local = () => makeContext({ environment: new LocalEnvironment({ loginShellEnv: false }) });

describe('execute_code', () => {
  it('is hidden without a dispatch function', async () => {
    expect(await createExecuteCodeTool().checkFn?.()).toBe(false);
  });

  it('runs a script that calls whitelisted tools over the bridge', async () => {
    const seen: unknown[] = [];
    const tool = createExecuteCodeTool({
      dispatch: async (name, args) => {
        seen.push([name, args]);
        return `result of ${name}`;
      },
    });
    const code = `import { read_file, callTool } from 'hermes_tools';
const a = await read_file({ path: 'x.txt' });
let denied = '';
try { await callTool('delete_everything', {}); } catch (e) { denied = e.message; }
console.log(a); console.log(denied); console.error('warn');`;
    const out = JSON.parse(await text(call(tool, { code }, local())));
    expect(out.status).toBe('success');
    expect(out.output).toContain('result of read_file');
    expect(out.output).toContain('not available in execute_code');
    expect(out.stderr).toContain('warn');
    expect(out.tool_calls_made).toBe(2);
    expect(seen).toEqual([['read_file', { path: 'x.txt' }]]);
  });

  it('stops tool calls past the limit and caps output', async () => {
    const tool = createExecuteCodeTool({
      dispatch: async () => 'ok',
      maxToolCalls: 3,
      maxStdoutChars: 200,
    });
    const code = `import { terminal } from 'hermes_tools';
const results = [];
for (let i = 0; i < 5; i++) { try { results.push(await terminal({ command: 'true' })); } catch (e) { results.push(e.message); } }
console.log(JSON.stringify(results)); console.log('y'.repeat(5000));`;
    const out = JSON.parse(await text(call(tool, { code }, local())));
    expect(out.output).toContain('tool-call limit reached (3');
    expect(out.output.length).toBeLessThanOrEqual(200);
    expect(out.output).toContain('characters omitted');
  });

  it('kills a script that runs past the timeout, and reports a failing one', async () => {
    const tool = createExecuteCodeTool({ dispatch: async () => 'ok', timeoutMs: 500 });
    const slow = JSON.parse(
      await text(call(tool, { code: 'setInterval(() => {}, 1000);' }, local())),
    );
    expect(slow.status).toBe('timeout');
    // A generous limit: a loaded machine may take a while just to start node.
    const patient = createExecuteCodeTool({ dispatch: async () => 'ok' });
    const failing = JSON.parse(
      await text(call(patient, { code: 'throw new Error("boom")' }, local())),
    );
    expect(failing.status).toBe('error');
    expect(failing.stderr).toContain('boom');
  });

  it('does not pass secrets from the parent environment', async () => {
    process.env.HERMES_TEST_SECRET_KEY = 'sk-should-not-leak';
    try {
      const tool = createExecuteCodeTool({ dispatch: async () => 'ok' });
      const out = JSON.parse(
        await text(
          call(tool, { code: 'console.log(String(process.env.HERMES_TEST_SECRET_KEY))' }, local()),
        ),
      );
      expect(out.output.trim()).toBe('undefined');
    } finally {
      delete process.env.HERMES_TEST_SECRET_KEY;
    }
  });

  it('refuses a non-local environment', async () => {
    const tool = createExecuteCodeTool({ dispatch: async () => 'ok' });
    await expect(call(tool, { code: '1' }, makeContext())).rejects.toThrow(
      /only with the local environment/,
    );
  });
});
