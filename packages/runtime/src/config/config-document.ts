/**
 * `HERMES_HOME/config.yaml` as a YAML document with positions: the parsed document (which keeps
 * comments, for edits), the text, and the line of any key path, for error messages.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Document, isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';

/** One segment of a key path: a map key or a list index. */
export type KeySegment = string | number;

/** config.yaml as read from disk. */
export interface ConfigSource {
  /** The file's absolute path. */
  readonly path: string;
  /** False when there is no config.yaml yet (every setting has its default). */
  readonly exists: boolean;
  readonly text: string;
  /** The parsed document; its `errors` hold YAML syntax errors. */
  readonly doc: Document.Parsed;
  readonly lineCounter: LineCounter;
}

/** The path of config.yaml in a data home. */
export function configFilePath(hermesHome: string): string {
  return join(hermesHome, 'config.yaml');
}

/** Parses YAML text, keeping comments and positions. */
export function parseConfigText(text: string, path = 'config.yaml'): ConfigSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true });
  return { path, exists: true, text, doc, lineCounter };
}

/**
 * Reads config.yaml from `hermesHome` (or the file at `path`, e.g. the gateway's `--config`); an
 * absent file reads as empty.
 */
export function readConfigSource(
  hermesHome: string,
  path: string = configFilePath(hermesHome),
): ConfigSource {
  const exists = existsSync(path);
  const source = parseConfigText(exists ? readFileSync(path, 'utf8') : '', path);
  return { ...source, exists };
}

function lineAt(source: ConfigSource, node: Node | null | undefined): number | undefined {
  const offset = node?.range?.[0];
  return offset === undefined ? undefined : source.lineCounter.linePos(offset).line;
}

/**
 * The 1-based line of a key path: the line of its key in a mapping, of its item in a list. A
 * path that goes deeper than the file gives the line of the deepest part that exists.
 */
export function lineOfPath(source: ConfigSource, path: readonly KeySegment[]): number | undefined {
  let node: unknown = source.doc.contents;
  let line = lineAt(source, node as Node | null);
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => (isScalar(item.key) ? item.key.value : item.key) === segment,
      );
      if (!pair) return line;
      line = lineAt(source, pair.key as Node) ?? line;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment];
      if (item === undefined) return line;
      line = lineAt(source, item as Node) ?? line;
      node = item;
    } else return line;
  }
  return line;
}

/** `model.fallback[0].provider` for `['model', 'fallback', 0, 'provider']`. */
export function formatKeyPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((key, index) =>
      typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`,
    )
    .join('');
}

/**
 * Splits `model.fallback[0].provider` or `model.fallback.0.provider` into segments. A
 * number-looking segment becomes a list index.
 */
export function parseKeyPath(text: string): KeySegment[] {
  return text
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((part) => part !== '')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}
