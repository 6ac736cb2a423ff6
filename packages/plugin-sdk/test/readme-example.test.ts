/**
 * The README's plugin example is the folder `examples/hello/`, shown verbatim; the CLI's
 * end-to-end test (`apps/cli/test/plugins-e2e.test.ts`) installs that folder and runs it through
 * `hermes chat -q` and `hermes hello`. This test keeps the README and the folder identical.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

describe('the README example', () => {
  it('shows examples/hello/package.json and index.mjs as they are', () => {
    const readme = read('README.md');
    // The formatter lays out JSON in Markdown differently from a .json file: compare the values.
    const shown = /```json\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(JSON.parse(shown)).toEqual(JSON.parse(read('examples/hello/package.json')));
    expect(readme).toContain(`\`\`\`js\n${read('examples/hello/index.mjs')}\`\`\``);
  });

  it('declares in package.json what index.mjs registers', () => {
    const pkg = JSON.parse(read('examples/hello/package.json')) as {
      hermes: { provides: { tools: string[]; commands: string[]; hooks: string[] } };
    };
    const source = read('examples/hello/index.mjs');
    for (const tool of pkg.hermes.provides.tools) expect(source).toContain(`name: '${tool}'`);
    for (const command of pkg.hermes.provides.commands)
      expect(source).toContain(`name: '${command}'`);
    for (const hook of pkg.hermes.provides.hooks)
      expect(source).toContain(`registerHook('${hook}'`);
  });
});
