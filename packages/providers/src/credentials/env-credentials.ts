/** Reading a provider's API keys from environment variables. */
import type { CredentialInput } from './credential.js';

/**
 * The variables that hold each provider's key, where the name is not simply
 * `<PROVIDER>_API_KEY` (upper-cased, non-alphanumerics as `_`).
 */
const KNOWN_KEY_VARIABLES: Readonly<Record<string, readonly string[]>> = {
  gemini: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  google: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  'openai-chat': ['OPENAI_API_KEY'],
  'openai-responses': ['OPENAI_API_KEY'],
  'anthropic-messages': ['ANTHROPIC_API_KEY'],
  xai: ['XAI_API_KEY'],
  // Bedrock API keys; without one, the Bedrock adapter signs with the AWS credential chain.
  bedrock: ['AWS_BEARER_TOKEN_BEDROCK'],
  'aws-bedrock': ['AWS_BEARER_TOKEN_BEDROCK'],
  'amazon-bedrock': ['AWS_BEARER_TOKEN_BEDROCK'],
  'bedrock-converse': ['AWS_BEARER_TOKEN_BEDROCK'],
};

/** Options of {@link credentialsFromEnv}. */
export interface CredentialsFromEnvOptions {
  /** The base variable names to read instead of the provider's defaults. */
  readonly variables?: readonly string[];
}

/** The base variable names read for `provider`. */
export function keyVariablesFor(provider: string): readonly string[] {
  const known = KNOWN_KEY_VARIABLES[provider.toLowerCase()];
  if (known !== undefined) return known;
  return [`${provider.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_API_KEY`];
}

/**
 * The keys for `provider` found in `env`, in priority order, labelled by where they were found.
 *
 * For each base name (e.g. `OPENAI_API_KEY`) it reads the variable itself, then the numbered
 * ones `OPENAI_API_KEY_1`, `OPENAI_API_KEY_2`, … in numeric order (gaps allowed). Any value may
 * hold several keys separated by commas. A key's label is its variable name, with `#n` appended
 * for the n-th key of a comma list (`OPENAI_API_KEY_2#2`); its source is `env:<variable>`.
 * Blank entries are skipped and a key seen twice is kept once, at its first position.
 */
export function credentialsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  provider: string,
  options: CredentialsFromEnvOptions = {},
): CredentialInput[] {
  const found: CredentialInput[] = [];
  const seen = new Set<string>();
  for (const variable of variablesInOrder(env, options.variables ?? keyVariablesFor(provider))) {
    const keys = (env[variable] ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter((key) => key !== '');
    keys.forEach((apiKey, index) => {
      if (seen.has(apiKey)) return;
      seen.add(apiKey);
      const label = keys.length > 1 ? `${variable}#${index + 1}` : variable;
      found.push({ apiKey, label, priority: found.length, source: `env:${variable}` });
    });
  }
  return found;
}

/** Each base name, followed by its numbered variants in numeric order. */
function variablesInOrder(
  env: Readonly<Record<string, string | undefined>>,
  bases: readonly string[],
): string[] {
  const names: string[] = [];
  for (const base of bases) {
    names.push(base);
    const numbered = Object.keys(env)
      .map((name) => ({ name, n: numberedSuffix(name, base) }))
      .filter((entry): entry is { name: string; n: number } => entry.n !== undefined)
      .sort((a, b) => a.n - b.n);
    names.push(...numbered.map((entry) => entry.name));
  }
  return names;
}

function numberedSuffix(name: string, base: string): number | undefined {
  if (!name.startsWith(`${base}_`)) return undefined;
  const suffix = name.slice(base.length + 1);
  return /^[0-9]+$/.test(suffix) ? Number(suffix) : undefined;
}
