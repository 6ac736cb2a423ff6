/**
 * Temporary fixture monorepos for the checks. Each fixture is a real folder under os.tmpdir(),
 * so the checks read the file system exactly as they do on the real repo.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';

/** Path (relative to the fixture root) → file contents. */
export type FixtureFiles = Record<string, string>;

export interface ManifestSpec {
  name: string;
  dependencies?: string[];
  devDependencies?: string[];
  peerDependencies?: string[];
  private?: boolean;
}

const created: string[] = [];

afterEach(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes `files` into a fresh temporary directory, removed after the test. */
export function makeFixture(files: FixtureFiles): string {
  const root = mkdtempSync(join(tmpdir(), 'repo-checks-'));
  created.push(root);
  for (const [path, contents] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, contents);
  }
  return root;
}

function workspaceDeps(names: string[] | undefined): Record<string, string> | undefined {
  return names ? Object.fromEntries(names.map((n) => [n, 'workspace:^'])) : undefined;
}

/** A package.json whose dependency lists name workspace members. */
export function manifest(spec: ManifestSpec): string {
  return JSON.stringify({
    name: spec.name,
    version: '0.0.0',
    type: 'module',
    private: spec.private,
    dependencies: workspaceDeps(spec.dependencies),
    devDependencies: workspaceDeps(spec.devDependencies),
    peerDependencies: workspaceDeps(spec.peerDependencies),
  });
}

/**
 * A small clean workspace following ARCHITECTURE.md: protocol, state, loop (→ state), gateway
 * (→ loop), plugin-sdk, an app and a plugin. Tests add or override files to introduce one fault.
 */
export function cleanWorkspace(): FixtureFiles {
  return {
    'package.json': JSON.stringify({ name: 'fixture-root', private: true }),
    'vitest.shared.ts': 'export const sharedConfig = {};\n',
    'packages/protocol/package.json': manifest({ name: '@hermes/protocol' }),
    'packages/protocol/src/index.ts':
      "import { z } from 'zod';\nexport const schema = z.string();\n",
    'packages/state/package.json': manifest({
      name: '@hermes/state',
      dependencies: ['@hermes/protocol'],
      devDependencies: ['@hermes/testkit'],
    }),
    'packages/state/src/index.ts': "export * from './store.ts';\n",
    'packages/state/src/store.ts':
      "import type { Message } from '@hermes/protocol';\nexport type Stored = Message;\n",
    'packages/state/test/store.test.ts':
      "import { server } from '@hermes/testkit';\nimport { Stored } from '../src/store.ts';\n",
    'packages/state/vitest.config.ts': "import { sharedConfig } from '../../vitest.shared.ts';\n",
    'packages/testkit/package.json': manifest({
      name: '@hermes/testkit',
      dependencies: ['@hermes/protocol'],
    }),
    'packages/testkit/src/index.ts': "export const server = 'testkit';\n",
    'packages/loop/package.json': manifest({
      name: '@hermes/loop',
      dependencies: ['@hermes/protocol', '@hermes/state'],
    }),
    'packages/loop/src/index.ts':
      "import { Stored } from '@hermes/state';\nconst lazy = () => import('@hermes/protocol');\n",
    'packages/gateway/package.json': manifest({
      name: '@hermes/gateway',
      dependencies: ['@hermes/protocol', '@hermes/loop'],
    }),
    'packages/gateway/src/index.ts': "export * from '@hermes/loop';\n",
    'packages/plugin-sdk/package.json': manifest({
      name: '@hermes/plugin-sdk',
      dependencies: ['@hermes/protocol', '@hermes/state', '@hermes/gateway'],
    }),
    'packages/plugin-sdk/src/index.ts':
      "export type { Stored } from '@hermes/state';\nexport * from '@hermes/gateway';\n",
    'apps/cli/package.json': manifest({
      name: '@hermes/cli',
      dependencies: ['@hermes/loop', '@hermes/state'],
    }),
    'apps/cli/src/bin.ts':
      "import { readFileSync } from 'node:fs';\nimport '@hermes/loop';\nconst s = require('@hermes/state');\n",
    'plugins/memory-demo/package.json': manifest({
      name: '@hermes/plugin-memory-demo',
      dependencies: ['@hermes/plugin-sdk'],
    }),
    'plugins/memory-demo/src/index.ts':
      "import { definePlugin } from '@hermes/plugin-sdk';\nimport chalk from 'chalk';\n",
  };
}
