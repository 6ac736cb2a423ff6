import { describe, expect, it } from 'vitest';
import { editDistance, normalizeToolName, repairToolName } from '../src/index.js';

const known = [
  'read_file',
  'write_file',
  'search_files',
  'web_search',
  'terminal',
  'todo',
  'tool_search',
];

describe('tool-name repair', () => {
  it('normalizes case, separators and call prefixes', () => {
    expect(normalizeToolName(' Read-File ')).toBe('read_file');
    expect(normalizeToolName('functions.web_search')).toBe('web_search');
    expect(normalizeToolName('web  search')).toBe('web_search');
  });

  it('returns exact names untouched', () => {
    expect(repairToolName('todo', known)).toEqual({ kind: 'exact', name: 'todo' });
  });

  it('repairs normalized matches and unique near-misses', () => {
    expect(repairToolName('WEB-SEARCH', known)).toEqual({
      kind: 'repaired',
      name: 'web_search',
      from: 'WEB-SEARCH',
    });
    expect(repairToolName('termnal', known)).toEqual({
      kind: 'repaired',
      name: 'terminal',
      from: 'termnal',
    });
  });

  it('does not guess between short or equally close names; it suggests them', () => {
    const todos = repairToolName('todos', known);
    expect(todos.kind).toBe('unknown');
    const ambiguous = repairToolName('xrite_file', ['write_file', 'xrite_fila']);
    expect(ambiguous.kind).toBe('unknown');
    expect(ambiguous.kind === 'unknown' && ambiguous.suggestions).toEqual([
      'write_file',
      'xrite_fila',
    ]);
  });

  it('suggests nothing for a name far from every tool', () => {
    expect(repairToolName('launch_rocket', known)).toEqual({ kind: 'unknown', suggestions: [] });
  });

  it('computes edit distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
