/** How `hermes config show` and `get` print settings: secrets masked, collections as YAML. */
import { isScalar, parseDocument, stringify, visit } from 'yaml';
import { isSecretConfigKey, isSecretEnvName, maskValue } from '../../config/secrets.js';

/** config.yaml text with the value of every secret-named key masked (comments kept). */
export function maskConfigText(text: string): string {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return text;
  visit(doc, {
    Pair(_, pair) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (isSecretConfigKey(key) && isScalar(pair.value) && typeof pair.value.value === 'string') {
        pair.value.value = maskValue(pair.value.value);
      }
    },
  });
  return doc.toString();
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
