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

/** The option of a downloader that names the file it writes. */
const DOWNLOAD_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  curl: ['-o', '--output'],
  wget: ['-O', '--output-document'],
};

/** Editors in place: the files they name change in ways the line does not model. */
const IN_PLACE = new Set(['truncate', 'ed', 'ex', 'patch', 'dd']);
/** Stream editors that edit in place only with `-i`. */
const WITH_I = new Set(['sed', 'gsed', 'perl']);

function editsInPlace(inv: Site['inv']): boolean {
  if (IN_PLACE.has(inv.name)) return true;
  return WITH_I.has(inv.name) && inv.args.some((a) => a.startsWith('-i') || a === '--in-place');
}

/** Commands that write files named in their arguments. */
const WRITERS: ReadonlySet<string> = new Set([
  'tee',
  'cp',
  'mv',
  ...Object.keys(DOWNLOAD_OPTIONS),
  ...IN_PLACE,
  ...WITH_I,
]);

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

/** The file a downloader writes, from `-o file`, `-ofile` or `--output=file`. */
function downloadTarget(inv: Site['inv']): Word | string | undefined {
  const flags = DOWNLOAD_OPTIONS[inv.name];
  if (flags === undefined) return undefined;
  for (let i = 0; i < inv.args.length; i += 1) {
    const arg = inv.args[i] as string;
    for (const flag of flags) {
      if (arg === flag) return inv.argWords[i + 1];
      if (flag.startsWith('--') && arg.startsWith(`${flag}=`)) return arg.slice(flag.length + 1);
      if (!flag.startsWith('--') && arg.startsWith(flag) && arg.length > 2) return arg.slice(2);
    }
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
  if (inv.command.redirects.length === 0 && !WRITERS.has(inv.name)) return;
  let origin = bits & (FETCHER | DECODER);
  if (site.upstreamHas('fetcher')) origin |= FETCHER;
  if (site.upstreamHas('decoder')) origin |= DECODER;
  for (const redirect of inv.command.redirects) {
    const file = stdoutFile(redirect);
    if (file !== undefined) files.write(file.target, site, out, origin, file.append);
  }
  if (inv.name === 'tee') {
    const append = inv.args.some((arg) => arg === '-a' || arg === '--append');
    for (const target of operands(inv)) files.write(target, site, out, origin, append);
  } else if (inv.name === 'cp' || inv.name === 'mv') {
    const [from, to, extra] = operands(inv);
    if (from !== undefined && to !== undefined && extra === undefined) files.copy(from, to, site);
  } else if (DOWNLOAD_OPTIONS[inv.name] !== undefined) {
    const target = downloadTarget(inv);
    if (target !== undefined && target !== '-')
      files.write(target, site, undefined, FETCHER, false);
  } else if (!files.empty && editsInPlace(inv)) {
    for (const target of operands(inv)) files.modify(target, site);
    for (const arg of inv.args) if (arg.startsWith('of=')) files.modify(arg.slice(3), site);
  }
}
