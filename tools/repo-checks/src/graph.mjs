// @ts-check
/** Cycle finding on a small directed graph (workspace package → the members it depends on). */

/**
 * Every dependency cycle, one per strongly connected component, as a path that starts at the
 * component's alphabetically first node and returns to it, e.g. `['a', 'b', 'a']`.
 * @param {Map<string, string[]>} graph
 * @returns {string[][]}
 */
export function findCyclePaths(graph) {
  /** @type {string[][]} */
  const paths = [];
  for (const component of stronglyConnected(graph)) {
    const start = [...component].sort()[0];
    if (start === undefined) continue;
    const path = cyclePath(graph, component, start);
    if (path.length) paths.push(path);
  }
  return paths;
}

/**
 * Tarjan's algorithm; returns the components that contain a cycle (size > 1, or a self-edge).
 * @param {Map<string, string[]>} graph
 * @returns {Set<string>[]}
 */
function stronglyConnected(graph) {
  /** @type {Map<string, number>} */
  const index = new Map();
  /** @type {Map<string, number>} */
  const low = new Map();
  /** @type {string[]} */
  const stack = [];
  /** @type {Set<string>} */
  const onStack = new Set();
  /** @type {Set<string>[]} */
  const components = [];

  /** @param {string} node */
  const visit = (node) => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    /** @type {Set<string>} */
    const component = new Set();
    /** @type {string | undefined} */
    let top;
    do {
      top = stack.pop();
      if (top !== undefined) {
        onStack.delete(top);
        component.add(top);
      }
    } while (top !== node && top !== undefined);
    const selfEdge = (graph.get(node) ?? []).includes(node);
    if (component.size > 1 || selfEdge) components.push(component);
  };

  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components;
}

/**
 * Shortest path from `start` back to itself inside one component (breadth-first).
 * @param {Map<string, string[]>} graph
 * @param {Set<string>} component
 * @param {string} start
 * @returns {string[]} e.g. ['a', 'b', 'a']; empty if none
 */
function cyclePath(graph, component, start) {
  /** @type {Map<string, string>} */
  const parent = new Map();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head] ?? start;
    for (const next of graph.get(node) ?? []) {
      if (next === start) return [...pathTo(parent, start, node), start];
      if (!component.has(next) || parent.has(next)) continue;
      parent.set(next, node);
      queue.push(next);
    }
  }
  return [];
}

/**
 * @param {Map<string, string>} parent
 * @param {string} start
 * @param {string} node
 * @returns {string[]} start … node
 */
function pathTo(parent, start, node) {
  const path = [node];
  let current = node;
  while (current !== start) {
    const up = parent.get(current);
    if (up === undefined) break;
    path.unshift(up);
    current = up;
  }
  return path;
}
