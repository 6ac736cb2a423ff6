/**
 * Runs `delivery-child.ts` under plain `node`, loading the TypeScript sources through Vite's
 * module runner (the machinery vitest uses), so the crash test runs the code as written, with no
 * build step and no stale `dist/`. Usage: `node delivery-child.mjs '<json config>'`.
 */
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const conditions = ['@hermes/source', 'node', 'import', 'module', 'default'];
const entry = fileURLToPath(new URL('./delivery-child.ts', import.meta.url));
const { module } = await runnerImport(entry, {
  configFile: false,
  logLevel: 'error',
  resolve: { conditions },
  ssr: { resolve: { conditions } },
});
await module.run(JSON.parse(process.argv[2]));
