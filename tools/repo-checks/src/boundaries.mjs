// @ts-check
/**
 * Workspace boundary checker: enforces the dependency direction of ARCHITECTURE.md ("Shape").
 *
 * Two sources of edges are checked. Import statements in each member's source files catch code
 * that crosses a boundary; the workspace dependencies each package.json declares catch a wrong
 * arrow before any code uses it, and are the graph the cycle check walks.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { findCyclePaths } from './graph.mjs';
import { extractImports } from './imports.mjs';
import { PLUGIN_SDK, ruleBreak } from './layers.mjs';
import { findMembers, listSourceFiles, toPosix } from './workspace.mjs';

export * from './layers.mjs';

/**
 * @typedef {import('./workspace.mjs').Member} Member
 * @typedef {import('./imports.mjs').ImportRef} ImportRef
 * @typedef {'src-import' | 'cross-member-relative' | 'imports-app' | 'plugin-import'
 *   | 'undeclared-dependency' | 'cycle' | 'layer'} ViolationKind
 * @typedef {{ kind: ViolationKind, file: string, importSpecifier: string, message: string }} Violation
 * @typedef {{ members: number, files: number, imports: number }} ScanStats
 * @typedef {{ rootDir: string, members: Member[], byName: Map<string, Member> }} Workspace
 */

/** What to do about each kind of violation; printed after the specific finding. */
const ADVICE = {
  'src-import':
    "import the package by its name and use only what its entry exports; never reach into another member's src/",
  'cross-member-relative':
    'import the other member by its package name (and declare it in package.json) instead of a relative path',
  'imports-app':
    'nothing may import an app; move the shared code into a package under packages/ and import that',
  'plugin-import': `plugins may import only ${PLUGIN_SDK}; use what it re-exports, or add the re-export to plugin-sdk`,
  'undeclared-dependency':
    'add it as "workspace:^" to dependencies (or devDependencies when only tests use it)',
  layer:
    'invert the dependency (inject it through a seam) or, if ARCHITECTURE.md allows the arrow, add it to LAYER_ALLOW in tools/repo-checks/src/layers.mjs',
  cycle:
    'remove one of these dependencies; a seam (abstract class) in the lower package usually breaks it',
};

/**
 * All boundary violations of the monorepo at `rootDir`.
 * @param {string} rootDir
 * @returns {Violation[]}
 */
export function checkBoundaries(rootDir) {
  return scanBoundaries(rootDir).violations;
}

/**
 * Like {@link checkBoundaries}, plus counts for the summary line.
 * @param {string} rootDir
 * @returns {{ violations: Violation[], stats: ScanStats }}
 */
export function scanBoundaries(rootDir) {
  const absRoot = resolve(rootDir);
  const members = findMembers(absRoot);
  /** @type {Workspace} */
  const ws = { rootDir: absRoot, members, byName: new Map(members.map((m) => [m.name, m])) };
  /** @type {Violation[]} */
  const violations = [];
  /** @type {ScanStats} */
  const stats = { members: members.length, files: 0, imports: 0 };
  for (const member of members) {
    violations.push(...checkDeclaredDependencies(ws, member));
    for (const file of listSourceFiles(member.dir)) {
      const imports = extractImports(readFileSync(file, 'utf8'));
      stats.files++;
      stats.imports += imports.length;
      for (const imp of imports) violations.push(...checkImport(ws, member, file, imp));
    }
  }
  violations.push(...findCycles(ws));
  return { violations, stats };
}

/**
 * @param {Workspace} ws
 * @param {string} absPath
 */
function repoPath(ws, absPath) {
  return toPosix(relative(ws.rootDir, absPath));
}

/**
 * @param {ViolationKind} kind
 * @param {string} file repo-relative
 * @param {string} importSpecifier
 * @param {string} finding what is wrong, starting with the location
 * @returns {Violation}
 */
function violation(kind, file, importSpecifier, finding) {
  return { kind, file, importSpecifier, message: `${finding}; ${ADVICE[kind]}` };
}

/**
 * Checks one import of one source file.
 * @param {Workspace} ws
 * @param {Member} member the member owning `file`
 * @param {string} file absolute path
 * @param {ImportRef} imp
 * @returns {Violation[]}
 */
function checkImport(ws, member, file, imp) {
  const where = `${repoPath(ws, file)}:${imp.line} imports '${imp.specifier}'`;
  if (imp.specifier.startsWith('.') || imp.specifier.startsWith('/')) {
    return checkRelativeImport(ws, member, file, imp.specifier, where);
  }
  return checkPackageImport(ws, member, file, imp.specifier, where);
}

/**
 * A relative path must stay inside its own member.
 * @param {Workspace} ws
 * @param {Member} member
 * @param {string} file
 * @param {string} specifier
 * @param {string} where
 * @returns {Violation[]}
 */
function checkRelativeImport(ws, member, file, specifier, where) {
  const target = resolve(dirname(file), specifier);
  const owner = ws.members.find((m) => target === m.dir || target.startsWith(m.dir + sep));
  // Paths outside every member (e.g. ../../vitest.shared.ts) are shared repo config, not a member.
  if (!owner || owner === member) return [];
  const inside = toPosix(relative(owner.dir, target));
  const fileRel = repoPath(ws, file);
  if (inside === 'src' || inside.startsWith('src/')) {
    return [violation('src-import', fileRel, specifier, `${where}, inside ${owner.name}'s src/`)];
  }
  return [
    violation(
      'cross-member-relative',
      fileRel,
      specifier,
      `${where}, a relative path into ${owner.name}`,
    ),
  ];
}

/**
 * A bare specifier naming a workspace member: no src/ deep path, a permitted arrow, and declared.
 * @param {Workspace} ws
 * @param {Member} member
 * @param {string} file
 * @param {string} specifier
 * @param {string} where
 * @returns {Violation[]}
 */
function checkPackageImport(ws, member, file, specifier, where) {
  const { name, subpath } = splitSpecifier(specifier);
  const target = ws.byName.get(name);
  if (!target || target === member) return [];
  const fileRel = repoPath(ws, file);
  /** @type {Violation[]} */
  const found = [];
  const rule = ruleBreak(member, target, isTestFile(member, file));
  if (subpath === 'src' || subpath.startsWith('src/')) {
    found.push(violation('src-import', fileRel, specifier, `${where}, inside ${name}'s src/`));
  } else if (rule) {
    found.push(violation(rule.kind, fileRel, specifier, `${where}: ${rule.why}`));
  }
  if (!allDependencies(member).has(name)) {
    const finding = `${where}, but ${member.relDir}/package.json does not declare ${name}`;
    found.push(violation('undeclared-dependency', fileRel, specifier, finding));
  }
  return found;
}

/**
 * Applies the direction rules to the workspace dependencies a package.json declares.
 * @param {Workspace} ws
 * @param {Member} member
 * @returns {Violation[]}
 */
function checkDeclaredDependencies(ws, member) {
  const file = `${member.relDir}/package.json`;
  const { dependencies, peerDependencies } = member.manifest;
  const runtime = new Set([...Object.keys(dependencies), ...Object.keys(peerDependencies)]);
  /** @type {Violation[]} */
  const found = [];
  for (const name of allDependencies(member)) {
    const target = ws.byName.get(name);
    // A self-dependency is reported by the cycle check.
    if (!target || target === member) continue;
    // Listed only in devDependencies: used by tests alone.
    const rule = ruleBreak(member, target, !runtime.has(name));
    if (rule)
      found.push(violation(rule.kind, file, name, `${file} declares '${name}': ${rule.why}`));
  }
  return found;
}

/**
 * Test code may use test-only packages such as @hermes/testkit; src/ may not.
 * @param {Member} member
 * @param {string} file absolute path
 */
export function isTestFile(member, file) {
  const rel = toPosix(relative(member.dir, file));
  const top = rel.split('/')[0];
  // Top-level files are configs (vitest.config.ts, tsup.config.ts); they never ship.
  if (!rel.includes('/') || top === 'test' || top === 'bench') return true;
  return /\.(test|spec|bench)\.[cm]?[jt]sx?$/.test(rel) || rel.includes('/__tests__/');
}

/**
 * Splits `@scope/name/sub/path` or `name/sub/path` into package name and subpath.
 * @param {string} specifier
 * @returns {{ name: string, subpath: string }}
 */
export function splitSpecifier(specifier) {
  const parts = specifier.split('/');
  const size = specifier.startsWith('@') ? 2 : 1;
  return { name: parts.slice(0, size).join('/'), subpath: parts.slice(size).join('/') };
}

/**
 * @param {Member} member
 * @returns {Set<string>} names in dependencies, devDependencies and peerDependencies
 */
function allDependencies(member) {
  const { dependencies, devDependencies, peerDependencies } = member.manifest;
  return new Set([
    ...Object.keys(dependencies),
    ...Object.keys(devDependencies),
    ...Object.keys(peerDependencies),
  ]);
}

/**
 * Workspace dependency graph: member name → the workspace members its package.json names.
 * @param {Workspace} ws
 * @returns {Map<string, string[]>}
 */
function dependencyGraph(ws) {
  /** @type {Map<string, string[]>} */
  const graph = new Map();
  for (const member of ws.members) {
    const edges = [...allDependencies(member)].filter((name) => ws.byName.has(name)).sort();
    graph.set(member.name, edges);
  }
  return graph;
}

/**
 * One violation per dependency cycle (per strongly connected component), naming its path.
 * @param {Workspace} ws
 * @returns {Violation[]}
 */
function findCycles(ws) {
  /** @type {Violation[]} */
  const found = [];
  for (const path of findCyclePaths(dependencyGraph(ws))) {
    const first = ws.byName.get(path[0] ?? '');
    const second = path[1];
    if (!first || second === undefined) continue;
    const file = `${first.relDir}/package.json`;
    found.push(violation('cycle', file, second, `${file}: dependency cycle ${path.join(' -> ')}`));
  }
  return found;
}
