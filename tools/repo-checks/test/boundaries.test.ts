import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkBoundaries, LAYER_ALLOW, type Violation } from '../src/boundaries.mjs';
import { cleanWorkspace, type FixtureFiles, makeFixture, manifest } from './fixture.ts';

/** The clean workspace with `changes` written over it. */
function check(changes: FixtureFiles): Violation[] {
  return checkBoundaries(makeFixture({ ...cleanWorkspace(), ...changes }));
}

const summary = (violations: Violation[]) =>
  violations.map(({ kind, file, importSpecifier }) => ({ kind, file, importSpecifier }));

describe('checkBoundaries', () => {
  it('passes a clean workspace that follows ARCHITECTURE.md', () => {
    expect(check({})).toEqual([]);
  });

  it('src-import: a relative path into another member’s src/', () => {
    const violations = check({
      'packages/loop/src/index.ts': "import { Stored } from '../../state/src/store.ts';\n",
    });
    expect(summary(violations)).toEqual([
      {
        kind: 'src-import',
        file: 'packages/loop/src/index.ts',
        importSpecifier: '../../state/src/store.ts',
      },
    ]);
    expect(violations[0]?.message).toContain(
      "packages/loop/src/index.ts:1 imports '../../state/src/store.ts'",
    );
    expect(violations[0]?.message).toContain("@hermes/state's src/");
  });

  it('src-import: a package deep path into src/', () => {
    const violations = check({
      'packages/loop/src/index.ts': "export * from '@hermes/state/src/store.ts';\n",
    });
    expect(summary(violations)).toEqual([
      {
        kind: 'src-import',
        file: 'packages/loop/src/index.ts',
        importSpecifier: '@hermes/state/src/store.ts',
      },
    ]);
    expect(violations[0]?.message).toContain(
      "packages/loop/src/index.ts:1 imports '@hermes/state/src/store.ts'",
    );
  });

  it('cross-member-relative: any relative path into another member', () => {
    const violations = check({
      'packages/state/test/store.test.ts': "import x from '../../protocol/dist/index.js';\n",
    });
    expect(summary(violations)).toEqual([
      {
        kind: 'cross-member-relative',
        file: 'packages/state/test/store.test.ts',
        importSpecifier: '../../protocol/dist/index.js',
      },
    ]);
    expect(violations[0]?.message).toContain(
      "packages/state/test/store.test.ts:1 imports '../../protocol/dist/index.js'",
    );
  });

  it('imports-app: a package depending on an app', () => {
    const violations = check({
      'packages/cron/package.json': manifest({
        name: '@hermes/cron',
        dependencies: ['@hermes/protocol', '@hermes/cli'],
      }),
      'packages/cron/src/index.ts': "\nimport { main } from '@hermes/cli';\n",
    });
    expect(summary(violations)).toEqual([
      { kind: 'imports-app', file: 'packages/cron/package.json', importSpecifier: '@hermes/cli' },
      { kind: 'imports-app', file: 'packages/cron/src/index.ts', importSpecifier: '@hermes/cli' },
    ]);
    expect(violations[1]?.message).toContain("packages/cron/src/index.ts:2 imports '@hermes/cli'");
    expect(violations[1]?.message).toContain('@hermes/cli is an app (apps/cli)');
  });

  it('imports-app: an app importing another app', () => {
    const violations = check({
      'apps/gateway/package.json': manifest({
        name: '@hermes/gateway-server',
        dependencies: ['@hermes/gateway', '@hermes/cli'],
      }),
      'apps/gateway/src/bin.ts': "import '@hermes/gateway';\nimport('@hermes/cli');\n",
    });
    expect(summary(violations)).toEqual([
      { kind: 'imports-app', file: 'apps/gateway/package.json', importSpecifier: '@hermes/cli' },
      { kind: 'imports-app', file: 'apps/gateway/src/bin.ts', importSpecifier: '@hermes/cli' },
    ]);
    expect(violations[1]?.message).toContain("apps/gateway/src/bin.ts:2 imports '@hermes/cli'");
  });

  it('plugin-import: a plugin importing a workspace member other than plugin-sdk', () => {
    const violations = check({
      'plugins/memory-demo/package.json': manifest({
        name: '@hermes/plugin-memory-demo',
        dependencies: ['@hermes/plugin-sdk', '@hermes/loop'],
      }),
      'plugins/memory-demo/src/index.ts':
        "import { definePlugin } from '@hermes/plugin-sdk';\nimport { Agent } from '@hermes/loop';\n",
    });
    expect(summary(violations)).toEqual([
      {
        kind: 'plugin-import',
        file: 'plugins/memory-demo/package.json',
        importSpecifier: '@hermes/loop',
      },
      {
        kind: 'plugin-import',
        file: 'plugins/memory-demo/src/index.ts',
        importSpecifier: '@hermes/loop',
      },
    ]);
    expect(violations[1]?.message).toContain(
      "plugins/memory-demo/src/index.ts:2 imports '@hermes/loop'",
    );
  });

  it('undeclared-dependency: importing a member package.json does not list', () => {
    const violations = check({
      'packages/plugin-sdk/src/agent.ts': "export { Agent } from '@hermes/loop';\n",
    });
    expect(summary(violations)).toEqual([
      {
        kind: 'undeclared-dependency',
        file: 'packages/plugin-sdk/src/agent.ts',
        importSpecifier: '@hermes/loop',
      },
    ]);
    expect(violations[0]?.message).toContain(
      "packages/plugin-sdk/src/agent.ts:1 imports '@hermes/loop', but packages/plugin-sdk/package.json does not declare @hermes/loop",
    );
  });

  it('cycle: a two-package cycle is reported with its path', () => {
    const violations = check({
      'packages/state/package.json': manifest({
        name: '@hermes/state',
        dependencies: ['@hermes/protocol'],
        devDependencies: ['@hermes/testkit', '@hermes/loop'],
      }),
    });
    // state -> loop is also against the layer rules; the cycle is reported once, after it.
    expect(violations.map((v) => v.kind)).toEqual(['layer', 'cycle']);
    expect(violations[1]).toMatchObject({
      kind: 'cycle',
      file: 'packages/loop/package.json',
      importSpecifier: '@hermes/state',
    });
    expect(violations[1]?.message).toContain('@hermes/loop -> @hermes/state -> @hermes/loop');
  });

  it('cycle: a longer cycle is reported once with its full path', () => {
    const violations = check({
      'packages/state/package.json': manifest({
        name: '@hermes/state',
        dependencies: ['@hermes/protocol', '@hermes/gateway'],
        devDependencies: ['@hermes/testkit'],
      }),
    });
    expect(violations.map((v) => v.kind)).toEqual(['layer', 'cycle']);
    expect(violations[1]?.message).toContain(
      'dependency cycle @hermes/gateway -> @hermes/loop -> @hermes/state -> @hermes/gateway',
    );
  });

  it('cycle: a package that depends on itself', () => {
    const violations = check({
      'packages/plugin-sdk/package.json': manifest({
        name: '@hermes/plugin-sdk',
        dependencies: [
          '@hermes/protocol',
          '@hermes/state',
          '@hermes/gateway',
          '@hermes/plugin-sdk',
        ],
      }),
    });
    expect(summary(violations)).toEqual([
      {
        kind: 'cycle',
        file: 'packages/plugin-sdk/package.json',
        importSpecifier: '@hermes/plugin-sdk',
      },
    ]);
    expect(violations[0]?.message).toContain('@hermes/plugin-sdk -> @hermes/plugin-sdk');
  });

  it('layer: a package importing a member the allow-map does not grant', () => {
    const violations = check({
      'packages/skills/package.json': manifest({
        name: '@hermes/skills',
        dependencies: ['@hermes/protocol', '@hermes/state'],
      }),
      'packages/skills/src/index.ts': "import { Stored } from '@hermes/state';\n",
    });
    expect(summary(violations)).toEqual([
      { kind: 'layer', file: 'packages/skills/package.json', importSpecifier: '@hermes/state' },
      { kind: 'layer', file: 'packages/skills/src/index.ts', importSpecifier: '@hermes/state' },
    ]);
    expect(violations[1]?.message).toContain(
      "packages/skills/src/index.ts:1 imports '@hermes/state': @hermes/skills may import only @hermes/protocol",
    );
    expect(violations[1]?.message).toContain('LAYER_ALLOW');
  });

  it('layer: protocol imports no workspace member', () => {
    const violations = check({
      'packages/protocol/package.json': manifest({
        name: '@hermes/protocol',
        dependencies: ['@hermes/testkit'],
      }),
      'packages/protocol/src/index.ts': "import { server } from '@hermes/testkit';\n",
    });
    expect(violations.map((v) => [v.kind, v.file])).toEqual([
      ['layer', 'packages/protocol/package.json'],
      ['layer', 'packages/protocol/src/index.ts'],
      ['cycle', 'packages/protocol/package.json'],
    ]);
  });

  it('layer: testkit is allowed from tests but not from src/', () => {
    const violations = check({
      'packages/state/src/fake.ts': "import { server } from '@hermes/testkit';\n",
    });
    expect(summary(violations)).toEqual([
      { kind: 'layer', file: 'packages/state/src/fake.ts', importSpecifier: '@hermes/testkit' },
    ]);
  });

  it('grants the arrows ARCHITECTURE.md draws', () => {
    expect(LAYER_ALLOW['@hermes/loop']).toEqual(
      expect.arrayContaining(['@hermes/providers', '@hermes/tools', '@hermes/state']),
    );
    // The gateway drives Agents and implements the approval seam for chats; its PostgreSQL
    // parts (and cron's job store) share @hermes/state/postgres's PostgresDatabase ("Scale-out").
    expect(LAYER_ALLOW['@hermes/gateway']).toEqual([
      '@hermes/loop',
      '@hermes/approval',
      '@hermes/state',
    ]);
    expect(LAYER_ALLOW['@hermes/cron']).toEqual([
      '@hermes/tools',
      '@hermes/skills',
      '@hermes/state',
    ]);
    expect(LAYER_ALLOW['@hermes/plugin-sdk']).toEqual(['*']);
    // The runtime composes every package for the two binaries; only apps import it.
    expect(LAYER_ALLOW['@hermes/runtime']).toEqual(['*']);
  });

  it('skips node_modules and dist', () => {
    expect(
      check({
        'packages/loop/src/node_modules/x/index.js': "require('../../../../state/src/store.ts');\n",
        'packages/loop/dist/index.js': "import '../../state/src/store.ts';\n",
      }),
    ).toEqual([]);
  });
});

describe('bin/check-boundaries.mjs', () => {
  const bin = fileURLToPath(new URL('../bin/check-boundaries.mjs', import.meta.url));
  const run = (root: string) => spawnSync(process.execPath, [bin, root], { encoding: 'utf8' });

  it('exits 1 and names the offending file and import', () => {
    const root = makeFixture({
      ...cleanWorkspace(),
      'packages/loop/src/index.ts': "import { Stored } from '../../state/src/store.ts';\n",
    });
    const result = run(root);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      "boundaries [src-import] packages/loop/src/index.ts:1 imports '../../state/src/store.ts'",
    );
  });

  it('exits 0 with a one-line summary on a clean workspace', () => {
    const result = run(makeFixture(cleanWorkspace()));
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /^boundaries: OK \(8 members, \d+ files, \d+ imports checked\)\n$/,
    );
  });

  it('exits 2 when the root holds no workspace members', () => {
    const result = run(makeFixture({ 'package.json': '{}' }));
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('no workspace members');
  });
});
