import { describe, expect, it } from 'vitest';
import {
  parallelClassOf,
  pathsOverlap,
  planBatches,
  ToolRegistry,
  type ToolSpec,
} from '../src/index.js';

function spec(name: string, extra: Partial<ToolSpec> = {}): ToolSpec {
  return {
    name,
    toolset: 't',
    description: name,
    parameters: { type: 'object' },
    handler: () => '',
    ...extra,
  };
}

function registryWith(...specs: ToolSpec[]): ToolRegistry {
  const registry = new ToolRegistry();
  for (const s of specs) registry.register(s);
  return registry;
}

const shape = (batches: ReturnType<typeof planBatches>) =>
  batches.map((b) => `${b.mode}:${b.calls.map((c) => c.id ?? c.name).join(',')}`);

describe('parallel-safety classes', () => {
  it('classifies by the built-in lists when specs say nothing', () => {
    expect(parallelClassOf('clarify')).toBe('never');
    expect(parallelClassOf('web_search')).toBe('read-only');
    expect(parallelClassOf('session_search')).toBe('read-only');
    expect(parallelClassOf('read_file')).toBe('path-scoped');
    expect(parallelClassOf('write_file')).toBe('path-scoped');
    expect(parallelClassOf('terminal')).toBe('sequential');
  });

  it('spec flags take precedence', () => {
    expect(parallelClassOf('my_lookup', spec('my_lookup', { parallelSafe: true }))).toBe(
      'read-only',
    );
    expect(parallelClassOf('web_search', spec('web_search', { neverParallel: true }))).toBe(
      'never',
    );
    expect(parallelClassOf('web_search', spec('web_search', { parallelSafe: false }))).toBe(
      'sequential',
    );
    expect(parallelClassOf('edit', spec('edit', { pathScoped: () => ['x'] }))).toBe('path-scoped');
  });

  it('decides path overlap', () => {
    expect(pathsOverlap('/a/b.txt', '/a/b.txt')).toBe(true);
    expect(pathsOverlap('/a/./b.txt', '/a/c/../b.txt')).toBe(true);
    expect(pathsOverlap('/a', '/a/b.txt')).toBe(true);
    expect(pathsOverlap('/a/b.txt', '/a/bc.txt')).toBe(false);
    expect(pathsOverlap('src/x.ts', 'src/y.ts')).toBe(false);
    expect(pathsOverlap('src/x.ts', '/abs/src/x.ts')).toBe(true);
  });
});

describe('planBatches', () => {
  const registry = registryWith(
    spec('read_file', { parallelSafe: true, pathScoped: (a) => [String(a.path)] }),
    spec('write_file', { pathScoped: (a) => [String(a.path)] }),
    spec('web_search', { parallelSafe: true }),
    spec('terminal'),
    spec('clarify', { neverParallel: true }),
  );

  it('runs read-only calls together', () => {
    const calls = [
      { id: '1', name: 'web_search', args: {} },
      { id: '2', name: 'web_search', args: {} },
      { id: '3', name: 'read_file', args: { path: '/a' } },
    ];
    expect(shape(planBatches(calls, registry))).toEqual(['parallel:1,2,3']);
  });

  it('writes to different paths run together; overlapping writes split the segment', () => {
    const calls = [
      { id: '1', name: 'write_file', args: { path: '/p/a.txt' } },
      { id: '2', name: 'write_file', args: '{"path":"/p/b.txt"}' },
      { id: '3', name: 'read_file', args: { path: '/p/a.txt' } },
      { id: '4', name: 'web_search', args: {} },
    ];
    expect(shape(planBatches(calls, registry))).toEqual(['parallel:1,2', 'parallel:3,4']);
  });

  it('two reads of one path do not conflict', () => {
    const calls = [
      { id: '1', name: 'read_file', args: { path: '/x' } },
      { id: '2', name: 'read_file', args: { path: '/x' } },
    ];
    expect(shape(planBatches(calls, registry))).toEqual(['parallel:1,2']);
  });

  it('clarify, unknown and unclassified tools run sequentially in order, merging neighbours', () => {
    const calls = [
      { id: '1', name: 'web_search', args: {} },
      { id: '2', name: 'web_search', args: {} },
      { id: '3', name: 'clarify', args: {} },
      { id: '4', name: 'terminal', args: {} },
      { id: '5', name: 'mystery', args: {} },
      { id: '6', name: 'read_file', args: { path: '/a' } },
    ];
    expect(shape(planBatches(calls, registry))).toEqual(['parallel:1,2', 'sequential:3,4,5,6']);
  });

  it('a path-scoped call without a known path runs alone', () => {
    const calls = [
      { id: '1', name: 'write_file', args: {} },
      { id: '2', name: 'write_file', args: 'not json' },
      { id: '3', name: 'web_search', args: {} },
    ];
    expect(shape(planBatches(calls, registry))).toEqual(['sequential:1,2,3']);
  });

  it('a single call is sequential; no calls plan to nothing', () => {
    expect(shape(planBatches([{ id: '1', name: 'web_search', args: {} }], registry))).toEqual([
      'sequential:1',
    ]);
    expect(planBatches([], registry)).toEqual([]);
  });
});
