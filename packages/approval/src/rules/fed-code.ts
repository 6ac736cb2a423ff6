/**
 * Data that reaches an interpreter is code. A shell runs what it reads on standard input — a pipe
 * from `echo` / `printf` / `cat`, a here-document, a here-string, a file written earlier in the
 * same line — and the file it is given (`bash x.sh`, `. x.sh`, `./x.sh` after writing it); so do
 * `at` and `batch`, which queue what they read for `sh`. This
 * module finds that text for one invocation; the analyser judges it as the script it is. Text fed
 * to another interpreter (`echo … | python3`) is not parsed, but asked about like a here-document.
 */
import { carriesText, type Feed, isKnown } from '../feeds/feed.js';
import { fileContent, inputsOf } from '../feeds/stdout.js';
import type { WrittenFiles } from '../feeds/written-files.js';
import type { Word } from '../shell/ast.js';
import { commandBasename, type Invocation } from '../shell/unwrap.js';
import { isStdinPath, shellRuns } from './carriers.js';
import { readsCodeFromStdin } from './dangerous-exec.js';
import { DECODER, FETCHER } from './fact-bits.js';
import { type Finding, hit, INTERPRETERS, interpreterName, SHELLS, type Site } from './types.js';

/** The code one invocation is fed. */
export interface FedCode {
  /** Shell code: every text of every feed is judged as a script of its own. */
  readonly shell: readonly Feed[];
  /** Code for another interpreter (python, node, …), from text the line spells out. */
  readonly script: boolean;
}

/** The commands besides the interpreters that run code they are fed. */
const READERS: ReadonlySet<string> = new Set([...SHELLS, 'source', '.', 'at', 'batch']);

/** Nothing fed: most invocations. */
export const NO_CODE: FedCode = { shell: [], script: false };
const FED_SCRIPT: FedCode = { shell: [], script: true };

/** What a file's first line says runs it: a shell, another interpreter, or something else. */
function runnerOf(text: string): 'shell' | 'script' | 'other' {
  if (!text.startsWith('#!')) return 'shell'; // no interpreter line: the shell runs it
  const end = text.indexOf('\n');
  const words = text
    .slice(2, end < 0 ? text.length : end)
    .trim()
    .split(/[ \t]+/);
  let name = commandBasename(words[0] ?? '');
  if (name === 'env') {
    const payload = words.slice(1).find((word) => !word.startsWith('-') && !word.includes('='));
    name = commandBasename(payload ?? '');
  }
  if (SHELLS.has(name)) return 'shell';
  return INTERPRETERS.has(interpreterName(name)) ? 'script' : 'other';
}

/** A file run by a shell (`bash x`, `. x`, `bash <(echo …)`). */
function shellFile(word: Word | undefined, site: Site, files: WrittenFiles): FedCode {
  const feed = word === undefined ? undefined : fileContent(word, files, site);
  return feed === undefined ? NO_CODE : { shell: [feed], script: false };
}

/** A file the kernel runs (`./x.sh`): by its interpreter line. */
function executedFile(inv: Invocation, site: Site, files: WrittenFiles): FedCode {
  if (inv.dynamicName || !inv.path.includes('/')) return NO_CODE;
  const feed = files.read(inv.path, site);
  if (feed === undefined) return NO_CODE;
  const runner = runnerOf(feed.texts[0] ?? '');
  if (runner === 'shell') return { shell: [feed], script: false };
  return { shell: [], script: runner === 'script' && isKnown(feed) };
}

/** The first argument that is not an option: the script an interpreter runs. */
function scriptArgument(inv: Invocation): Word | undefined {
  const at = inv.args.findIndex((arg) => !arg.startsWith('-'));
  return at < 0 ? undefined : inv.argWords[at];
}

/** The code `site`'s invocation is fed, when the line itself says what it is. */
export function fedCode(site: Site, files: WrittenFiles): FedCode {
  const { inv } = site;
  // Most commands: neither a reader of code nor, with no file written yet, a written file.
  if (files.empty && !READERS.has(inv.name) && !INTERPRETERS.has(interpreterName(inv.name))) {
    return NO_CODE;
  }
  if (SHELLS.has(inv.name)) {
    const runs = shellRuns(inv);
    if (runs === 'stdin') return { shell: inputsOf(inv, site.stdin, files, site), script: false };
    return runs === undefined ? NO_CODE : shellFile(inv.argWords[runs], site, files);
  }
  if (inv.name === 'source' || inv.name === '.') {
    const path = inv.args[0];
    if (path !== undefined && isStdinPath(path)) {
      return { shell: inputsOf(inv, site.stdin, files, site), script: false };
    }
    return shellFile(inv.argWords[0], site, files);
  }
  // `at` and `batch` hand the script they read (or `-f file`) to `sh`.
  if (inv.name === 'at' || inv.name === 'batch') {
    const at = inv.args.indexOf('-f');
    if (at >= 0) return shellFile(inv.argWords[at + 1], site, files);
    return { shell: inputsOf(inv, site.stdin, files, site), script: false };
  }
  if (INTERPRETERS.has(interpreterName(inv.name))) {
    // Here-documents and here-strings are the `heredoc_script_exec` rule's already.
    if (carriesText(site.stdin) && readsCodeFromStdin(inv)) return FED_SCRIPT;
    if (files.empty) return NO_CODE;
    const script = scriptArgument(inv);
    return { shell: [], script: script !== undefined && isKnown(files.read(script, site)) };
  }
  return files.empty ? NO_CODE : executedFile(inv, site, files);
}

/**
 * The findings about fed code beyond its text: a part computed at run time (`echo "ls $X" | sh`
 * runs whatever `$X` holds, like `eval`), fetched or decoded bytes saved to a file and run, and
 * code handed to another interpreter.
 */
export function fedCodeFindings(site: Site, fed: FedCode, out: Finding[]): void {
  if (fed.script) {
    hit(site, out, 'heredoc_script_exec', `script fed to ${site.inv.name} from this command line`);
  }
  let dynamic = false;
  let origin = 0;
  for (const feed of fed.shell) {
    dynamic ||= feed.dynamic;
    origin |= feed.origin;
  }
  if (origin & FETCHER) hit(site, out, 'remote_to_shell', 'remote content run by a shell');
  else if (origin & DECODER) hit(site, out, 'decoded_to_shell', 'decoded content run by a shell');
  if (dynamic) hit(site, out, 'eval_dynamic', 'shell runs text computed at run time');
}
