/**
 * The files one command line writes, and what they may hold, so that a shell running one of them
 * later in the same line (`echo 'rm -rf /' > x.sh; sh x.sh`) is judged on its content. The parser
 * flattens `if`, `&&` and `||`, so any write may not have run: a file keeps every way it may have
 * been written (a few at most), and running it judges each.
 */
import { canonicalPath, homeRelative, type PathContext } from '../rules/paths.js';
import type { Script, Word } from '../shell/ast.js';
import { type Feed, MAX_ALTERNATIVES } from './feed.js';

/** One way the file may read. */
interface Alternative {
  readonly text: string;
  /**
   * It ends at a line boundary (a newline, not a continued one): text appended after it cannot
   * change the commands it holds, so the version without the append need not be kept.
   */
  readonly clean: boolean;
}

/** What the line knows of one file. */
interface Written {
  alternatives: Alternative[];
  dynamic: boolean;
  origin: number;
  walked: ReadonlyMap<string, Script> | undefined;
}

/** Where a command line writes and reads files. */
export interface FileScope {
  readonly cwd: string | undefined;
  readonly paths: PathContext;
}

function endsClean(text: string): boolean {
  return text.endsWith('\n') && !text.endsWith('\\\n');
}

function alternativesOf(feed: Feed): Alternative[] {
  return feed.texts.map((text) => ({ text, clean: endsClean(text) }));
}

/** The key of the file a word names: its canonical path, or `undefined` when it is computed. */
export function fileKey(word: Word | string, scope: FileScope): string | undefined {
  const value = typeof word === 'string' ? word : word.dynamic ? '' : word.value;
  // Devices are not files anything is kept in; `/dev/stdout` is the pipe itself.
  if (value === '' || value.startsWith('/dev/')) return undefined;
  const canon = canonicalPath(homeRelative(value, scope.paths), scope.cwd);
  if (!canon.relative) return canon.path;
  let path = canon.path;
  while (path.startsWith('./')) path = path.slice(2);
  return path === '' ? undefined : path;
}

/** Per command line: path → the text it may hold. */
export class WrittenFiles {
  private files: Map<string, Written> | undefined;

  /** Whether nothing has been written yet (most lines): every lookup can be skipped. */
  get empty(): boolean {
    return this.files === undefined;
  }

  /**
   * Records a write of `feed` (unknown when `undefined`) to the file `word` names. `origin` adds
   * the fetched/decoded bits of what produced it. A truncating write keeps the earlier contents
   * as alternatives too (the write may not have run); an append adds to each of them.
   */
  write(
    word: Word | string,
    scope: FileScope,
    feed: Feed | undefined,
    origin: number,
    append: boolean,
  ): void {
    if (feed === undefined && origin === 0) return;
    const key = fileKey(word, scope);
    if (key === undefined) return;
    this.files ??= new Map();
    let entry = this.files.get(key);
    if (entry === undefined) {
      entry = { alternatives: [], dynamic: false, origin: 0, walked: undefined };
      this.files.set(key, entry);
      append = false;
    }
    entry.origin |= origin | (feed?.origin ?? 0);
    if (feed === undefined) return;
    entry.dynamic ||= feed.dynamic;
    if (feed.walked !== undefined)
      entry.walked = new Map([...(entry.walked ?? []), ...feed.walked]);
    // Appending to a file whose text is not known: the appended text is what is known of it.
    const next =
      append && entry.alternatives.length > 0
        ? appended(entry.alternatives, feed)
        : [...entry.alternatives, ...alternativesOf(feed)];
    if (next.length > MAX_ALTERNATIVES) entry.dynamic = true;
    entry.alternatives = next.length > MAX_ALTERNATIVES ? next.slice(-MAX_ALTERNATIVES) : next;
  }

  /** Marks the file changed in a way the line does not model (`sed -i`): its text is computed. */
  modify(word: Word | string, scope: FileScope): void {
    const key = fileKey(word, scope);
    const entry = key === undefined ? undefined : this.files?.get(key);
    if (entry !== undefined) entry.dynamic = true;
  }

  /** `cp from to`, `mv from to`: `to` may now hold what `from` holds. */
  copy(from: Word | string, to: Word | string, scope: FileScope): void {
    const source = this.read(from, scope);
    if (source !== undefined) this.write(to, scope, source, 0, false);
  }

  /** What the file `word` names may hold, or `undefined` when the line did not write it. */
  read(word: Word | string, scope: FileScope): Feed | undefined {
    if (this.files === undefined) return undefined;
    const key = fileKey(word, scope);
    const entry = key === undefined ? undefined : this.files.get(key);
    if (entry === undefined) return undefined;
    return {
      texts: entry.alternatives.map((alternative) => alternative.text),
      dynamic: entry.dynamic,
      origin: entry.origin,
      walked: entry.walked,
    };
  }
}

/** Each alternative with `feed` appended, keeping the one without when the append could matter. */
function appended(alternatives: readonly Alternative[], feed: Feed): Alternative[] {
  const next: Alternative[] = [];
  for (const old of alternatives) {
    if (!old.clean || feed.texts.length === 0) next.push(old);
    for (const text of feed.texts) {
      next.push({ text: old.text + text, clean: text === '' ? old.clean : endsClean(text) });
    }
  }
  return next;
}
