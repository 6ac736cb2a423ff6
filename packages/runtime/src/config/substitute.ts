/** `${VAR}` substitution in config.yaml values. */
import { formatKeyPath, type KeySegment } from './config-document.js';

type Env = Readonly<Record<string, string | undefined>>;

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * A copy of `value` with every `${VAR}` in its strings replaced by the variable's value from
 * `env` (`${VAR:-fallback}` uses `fallback` when VAR is unset or empty). A reference to an unset
 * variable without a fallback is left as written and reported through `onMissing` with its key
 * path, so a typo shows up instead of silently becoming an empty string.
 */
export function substituteEnv(
  value: unknown,
  env: Env,
  onMissing: (variable: string, keyPath: string) => void = () => {},
  path: readonly KeySegment[] = [],
): unknown {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (whole, variable: string, fallback: string | undefined) => {
      const found = env[variable];
      if (found !== undefined && found !== '') return found;
      if (fallback !== undefined) return fallback;
      onMissing(variable, formatKeyPath(path));
      return whole;
    });
  }
  if (Array.isArray(value)) {
    return value.map((item, index) => substituteEnv(item, env, onMissing, [...path, index]));
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        substituteEnv(item, env, onMissing, [...path, key]),
      ]),
    );
  }
  return value;
}
