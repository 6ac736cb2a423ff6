/**
 * The inert-command test: a fast path for the commands that make up most of a long line (`cat
 * a`, `true`, `echo x`). Every rule is keyed on the payload's name, a wrapper, a redirection or a
 * computed name, so a command with none of those that no rule names cannot hit anything, and the
 * analyser skips the rules for it. `analyzeCommand(…, { exhaustive: true })` turns the shortcut
 * off; the tests check both ways agree.
 */
import type { Invocation } from '../shell/unwrap.js';
import { FS_RULES } from './dangerous-fs.js';
import { SYSTEM_RULES } from './dangerous-system.js';
import { HARDLINE_COMMANDS } from './hardline.js';
import { INTERPRETERS, SHELLS } from './types.js';

/** Every name some rule or carrier looks at (exactly; prefixes are checked below). */
const NAMED: ReadonlySet<string> = new Set([
  ...FS_RULES.keys(),
  ...SYSTEM_RULES.keys(),
  ...HARDLINE_COMMANDS,
  ...SHELLS,
  ...INTERPRETERS,
  'git',
  'find',
  'eval',
  'su',
  'watch',
  'source',
  '.',
  'cd',
  'chmod',
  // They queue the script they read for `sh` (`rules/fed-code.ts`).
  'at',
  'batch',
]);

/**
 * True when no rule can find anything in `inv`: no wrapper, redirection or computed name, and a
 * name no rule looks at (`mkfs.*` and `python3.12`-style names are matched by prefix).
 */
export function isInert(inv: Invocation): boolean {
  return (
    inv.wrappers.length === 0 &&
    inv.command.redirects.length === 0 &&
    !inv.dynamicName &&
    inv.carriedText === undefined &&
    !NAMED.has(inv.name) &&
    !inv.name.startsWith('mk') &&
    !inv.name.startsWith('python')
  );
}
