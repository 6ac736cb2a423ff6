/**
 * The files one command writes, and with what: its output to `>` / `>>` / `&>` redirections,
 * `tee`'s input to its files, `cp` / `mv` copies, `curl -o` / `wget -O` downloads; `sed -i` and
 * friends change a file in a way that is not modelled, so its text becomes computed.
 */
import { DECODER, FETCHER } from '../rules/fact-bits.js';
import type { Site } from '../rules/types.js';
import type { Word } from '../shell/ast.js';
import type { Feed } from './feed.js';
import { stdoutFile } from './stdout.js';
import type { WrittenFiles } from './written-files.js';

/** The options of a downloader that name the file it writes (`curl -o f`, `wget -O f`). */
const CURL_OUTPUT = { letter: 'o', long: '--output' };
const WGET_OUTPUT = { letter: 'O', long: '--output-document' };

/** Editors in place: the files they name change in ways the line does not model. */
const IN_PLACE = new Set(['truncate', 'ed', 'ex', 'patch', 'dd']);
/** Stream editors that edit in place only with `-i`. */
const WITH_I = new Set(['sed', 'gsed', 'perl']);

function editsInPlace(inv: Site['inv']): boolean {
  if (IN_PLACE.has(inv.name)) return true;
  return WITH_I.has(inv.name) && inv.args.some((a) => a.startsWith('-i') || a === '--in-place');
}

/** Whether command `name` writes files named in its arguments (a switch: no hashing). */
function writesNamedFiles(name: string): boolean {
  switch (name) {
    case 'tee':
    case 'cp':
    case 'mv':
    case 'curl':
    case 'wget':
    case 'truncate':
    case 'ed':
    case 'ex':
    case 'patch':
    case 'dd':
    case 'sed':
    case 'gsed':
    case 'perl':
      return true;
    default:
      return false;
  }
}

/** The arguments that are not options (`tee -a x y` → x, y). */
function operands(inv: Site['inv']): Word[] {
  const out: Word[] = [];
  let options = true;
  inv.argWords.forEach((word, i) => {
    const arg = inv.args[i] as string;
    if (options && arg === '--') options = false;
    else if (!(options && arg.startsWith('-') && arg.length > 1)) out.push(word);
  });
  return out;
}

/** The file a downloader writes, from `-o file`, `-sSo file`, `-ofile` or `--output=file`. */
function downloadTarget(inv: Site['inv']): Word | string | undefined {
  const spec = inv.name === 'curl' ? CURL_OUTPUT : inv.name === 'wget' ? WGET_OUTPUT : undefined;
  if (spec === undefined) return undefined;
  for (let i = 0; i < inv.args.length; i += 1) {
    const arg = inv.args[i] as string;
    if (arg.charCodeAt(0) !== 45) continue;
    if (arg.startsWith('--')) {
      if (arg === spec.long) return inv.argWords[i + 1];
      if (arg.startsWith(spec.long) && arg.charAt(spec.long.length) === '=') {
        return arg.slice(spec.long.length + 1);
      }
      continue;
    }
    const at = arg.indexOf(spec.letter, 1);
    if (at >= 0) return at === arg.length - 1 ? inv.argWords[i + 1] : arg.slice(at + 1);
  }
  return undefined;
}

/**
 * Records in `files` what `site`'s command writes. `bits` are its fact bits
 * (`rules/fact-bits.ts`); `out` is what it prints (before its redirections), when the line knows.
 */
export function recordWrites(
  site: Site,
  bits: number,
  out: Feed | undefined,
  files: WrittenFiles,
): void {
  const { inv } = site;
  const name = inv.name;
  const redirects = inv.command.redirects;
  if (redirects.length === 0 && !writesNamedFiles(name)) return;
  if (name === 'curl' || name === 'wget') {
    const target = downloadTarget(inv);
    if (target !== undefined && target !== '-')
      files.write(target, site, undefined, FETCHER, false);
  } else if (name === 'cp' || name === 'mv') {
    const [from, to, extra] = operands(inv);
    if (from !== undefined && to !== undefined && extra === undefined) files.copy(from, to, site);
  } else if (!files.empty && editsInPlace(inv)) {
    for (const target of operands(inv)) files.modify(target, site);
    for (const arg of inv.args) if (arg.startsWith('of=')) files.modify(arg.slice(3), site);
  }
  // What the command prints goes to a file only through a redirection or `tee`.
  if (redirects.length === 0 && name !== 'tee') return;
  let origin = bits & (FETCHER | DECODER);
  if (site.upstreamHas('fetcher')) origin |= FETCHER;
  if (site.upstreamHas('decoder')) origin |= DECODER;
  // Nothing known about what it writes: no file learns anything.
  if (out === undefined && origin === 0) return;
  for (const redirect of redirects) {
    const file = stdoutFile(redirect);
    if (file !== undefined) files.write(file.target, site, out, origin, file.append);
  }
  if (name === 'tee') {
    const append = inv.args.some((arg) => arg === '-a' || arg === '--append');
    for (const target of operands(inv)) files.write(target, site, out, origin, append);
  }
}
