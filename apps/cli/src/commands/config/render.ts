/** How `hermes config show` and `get` print settings: secrets masked, collections as YAML. */

import { isSecretConfigPath, isSecretEnvName, type KeySegment, maskValue } from '@hermes/runtime';
import { isMap, isScalar, isSeq, parseDocument, stringify } from 'yaml';

/** config.yaml text with the value of every secret masked (comments kept). */
export function maskConfigText(text: string): string {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return text;
  maskNode(doc.contents, []);
  return doc.toString();
}

/** Masks the secret strings under `node`, whose key path is `path` (see `isSecretConfigPath`). */
function maskNode(node: unknown, path: readonly KeySegment[]): void {
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      const value = pair.value;
      if (isScalar(value) && typeof value.value === 'string') {
        if (isSecretConfigPath([...path, key])) value.value = maskValue(value.value);
      } else maskNode(value, [...path, key]);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, index) => {
      maskNode(item, [...path, index]);
    });
  }
}

/** `NAME=value` lines of `.env`, secrets masked, in name order. */
export function maskedEnvLines(values: Readonly<Record<string, string>>): string[] {
  return Object.keys(values)
    .sort()
    .map((name) => {
      const value = values[name] ?? '';
      return `${name}=${isSecretEnvName(name) ? maskValue(value) : value}`;
    });
}

/** A setting's value for the terminal: scalars as they are, lists and maps as YAML. */
export function renderValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return stringify(value).trimEnd();
  return String(value);
}
