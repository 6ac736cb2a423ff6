import { TOOL_NAME_PATTERN } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { coreTools, LOOP_OWNED_TOOL_NAMES, loopOwnedToolStubs } from '../../src/core/index.js';
import { makeContext } from './context.js';

describe('coreTools', () => {
  const tools = coreTools();
  const byName = new Map(tools.map((t) => [t.name, t]));

  it('exposes every core tool once, with valid names and zod schemas that convert to JSON Schema', () => {
    expect([...byName.keys()].sort()).toEqual(
      [
        'clarify',
        'execute_code',
        'image_generate',
        'patch',
        'process',
        'read_file',
        'search_files',
        'terminal',
        'text_to_speech',
        'todo',
        'vision_analyze',
        'web_extract',
        'web_search',
        'write_file',
      ].sort(),
    );
    for (const tool of tools) {
      expect(tool.name).toMatch(TOOL_NAME_PATTERN);
      expect(tool.description.length, tool.name).toBeGreaterThan(20);
      const schema = z.toJSONSchema(tool.parameters as z.ZodType, { io: 'input' });
      expect(schema.type, tool.name).toBe('object');
    }
  });

  it('declares the parallel-safety classes', () => {
    expect(byName.get('clarify')?.neverParallel).toBe(true);
    for (const name of ['read_file', 'search_files', 'web_search', 'web_extract'])
      expect(byName.get(name)?.parallelSafe, name).toBe(true);
    for (const name of ['terminal', 'write_file', 'patch', 'process', 'todo'])
      expect(byName.get(name)?.parallelSafe, name).toBeUndefined();
    expect(byName.get('read_file')?.pathScoped?.({ path: 'a' })).toEqual(['a']);
    expect(byName.get('write_file')?.pathScoped?.({ path: 'b', content: '' })).toEqual(['b']);
    expect(byName.get('patch')?.pathScoped?.({ path: 'c' })).toEqual(['c']);
    const diff =
      '--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+b\n--- /dev/null\n+++ b/y.ts\n@@ -0,0 +1 @@\n+c\n';
    expect(byName.get('patch')?.pathScoped?.({ mode: 'patch', patch: diff })).toEqual([
      'x.ts',
      'y.ts',
    ]);
  });

  it('hides tools whose backend is not configured', async () => {
    for (const name of [
      'web_search',
      'vision_analyze',
      'image_generate',
      'text_to_speech',
      'execute_code',
    ]) {
      expect(await byName.get(name)?.checkFn?.(), name).toBe(false);
    }
    const configured = coreTools({
      webSearch: { name: 'x', search: async () => [] },
      executeCode: { dispatch: async () => '' },
    });
    expect(await configured.find((t) => t.name === 'web_search')?.checkFn?.()).toBe(true);
    expect(await configured.find((t) => t.name === 'execute_code')?.checkFn?.()).toBe(true);
  });
});

describe('loopOwnedToolStubs', () => {
  it('declares loop-owned tools whose handler refuses generic dispatch', async () => {
    const stubs = loopOwnedToolStubs();
    expect(stubs.map((s) => s.name)).toEqual([...LOOP_OWNED_TOOL_NAMES]);
    for (const stub of stubs) {
      expect(stub.loopOwned).toBe(true);
      await expect(Promise.resolve().then(() => stub.handler({}, makeContext()))).rejects.toThrow(
        /must be handled by the agent loop/,
      );
    }
    expect(loopOwnedToolStubs(['delegate_task']).map((s) => s.name)).toEqual(['delegate_task']);
  });
});
