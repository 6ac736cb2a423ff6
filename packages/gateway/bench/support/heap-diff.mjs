/**
 * Compares two V8 heap snapshots by constructor: which kinds of objects grew between them, by
 * count and by self size. For finding what holds memory when a benchmark's heap grows.
 *
 *   node --max-old-space-size=4096 bench/support/heap-diff.mjs before.heapsnapshot after.heapsnapshot [rows=25]
 */
import { readFileSync } from 'node:fs';

/** `{ "type:name" → { count, size } }` over every node of the snapshot at `path`. */
function summarize(path) {
  const { snapshot, nodes, strings } = JSON.parse(readFileSync(path, 'utf8'));
  const fields = snapshot.meta.node_fields;
  const types = snapshot.meta.node_types[0];
  const width = fields.length;
  const at = { type: fields.indexOf('type'), name: fields.indexOf('name') };
  const sizeAt = fields.indexOf('self_size');
  const groups = new Map();
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + at.type]];
    // Strings and code are grouped by kind; objects by constructor name.
    const name = type === 'object' || type === 'closure' ? strings[nodes[i + at.name]] : '';
    const key = `${type}:${name}`.slice(0, 90);
    const group = groups.get(key) ?? { count: 0, size: 0 };
    group.count += 1;
    group.size += nodes[i + sizeAt];
    groups.set(key, group);
  }
  return groups;
}

const [beforePath, afterPath, rowsArg] = process.argv.slice(2);
if (!beforePath || !afterPath) {
  console.error('usage: heap-diff.mjs before.heapsnapshot after.heapsnapshot [rows]');
  process.exit(2);
}
const before = summarize(beforePath);
const after = summarize(afterPath);
const rows = [...after]
  .map(([key, group]) => {
    const old = before.get(key) ?? { count: 0, size: 0 };
    return { key, count: group.count - old.count, size: group.size - old.size };
  })
  .sort((a, b) => b.size - a.size)
  .slice(0, Number(rowsArg ?? 25));
console.log('Δ self size   Δ count   type:constructor');
for (const row of rows) {
  console.log(
    `${(row.size / 1024).toFixed(1).padStart(9)} KB ${String(row.count).padStart(9)}   ${row.key}`,
  );
}
