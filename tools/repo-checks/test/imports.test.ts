import { describe, expect, it } from 'vitest';
import { extractImports } from '../src/imports.mjs';

const specifiers = (source: string): string[] => extractImports(source).map((i) => i.specifier);

describe('extractImports', () => {
  it('finds every import form', () => {
    const source = [
      "import a from 'static-default';",
      "import { b, type C } from 'static-named';",
      "import type { D } from 'type-only';",
      "import * as e from 'namespace';",
      "import 'side-effect';",
      "export * from 're-export';",
      "export { f } from 're-export-named';",
      "const g = await import('dynamic');",
      "const h = require('required');",
      "import i = require('ts-import-equals');",
      'import j from "double-quoted";',
    ].join('\n');
    expect(extractImports(source).map((i) => [i.specifier, i.form])).toEqual([
      ['static-default', 'static'],
      ['static-named', 'static'],
      ['type-only', 'static'],
      ['namespace', 'static'],
      ['side-effect', 'side-effect'],
      ['re-export', 'static'],
      ['re-export-named', 'static'],
      ['dynamic', 'dynamic'],
      ['required', 'require'],
      ['ts-import-equals', 'require'],
      ['double-quoted', 'static'],
    ]);
  });

  it('handles imports split over several lines and reports the line of the specifier', () => {
    const source =
      "// header\nimport {\n  a,\n  b,\n} from\n  'multi-line';\nimport(\n  'dyn'\n);\n";
    expect(extractImports(source)).toEqual([
      { specifier: 'multi-line', line: 6, form: 'static' },
      { specifier: 'dyn', line: 8, form: 'dynamic' },
    ]);
  });

  it('ignores imports inside comments', () => {
    const source = [
      "// import a from 'line-comment';",
      "/* import b from 'block-comment';",
      "   require('still-comment') */",
      '/** @example',
      " * import('jsdoc')",
      ' */',
      "import real from 'real';",
    ].join('\n');
    expect(specifiers(source)).toEqual(['real']);
  });

  it('ignores import-like text inside strings, templates and regexes', () => {
    const source = [
      'const s = "import x from \'in-string\'";',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the scanner's input is source text holding a template literal
      "const t = `import y from 'in-template' ${ok ? 'a' : `nested ${'b'}`} require('tpl')`;",
      "const r = /from 'in-regex'/g;",
      'const q = /[\'"`]/.test(x);',
      "import after from 'after-all-of-that';",
    ].join('\n');
    expect(specifiers(source)).toEqual(['after-all-of-that']);
  });

  it('ignores member calls and import.meta', () => {
    const source = [
      "const a = Array.from('abc');",
      "const b = loader.import('not-a-module');",
      "const c = ctx?.require('nor-this');",
      "const url = new URL('./x', import.meta.url);",
      "const d = { from: 'object-key' };",
    ].join('\n');
    expect(specifiers(source)).toEqual([]);
  });

  it('treats a slash after a value as division, not a regex', () => {
    const source = "const half = total / 2; const x = (a) / b;\nimport z from 'still-found';";
    expect(specifiers(source)).toEqual(['still-found']);
  });
});
