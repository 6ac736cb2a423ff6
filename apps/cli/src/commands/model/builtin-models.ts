/**
 * The built-in model list of a provider, for when its `/models` endpoint cannot be asked: the
 * entries of `@hermes/providers`' model table that belong to the provider's families. The table is
 * keyed by vendor model ids, not by provider, so each provider names the id patterns it serves.
 */
import { MODEL_LIMITS, normalizeModelId } from '@hermes/providers';

/** One family of model ids in the table, and the providers that serve it under those ids. */
interface Family {
  readonly pattern: RegExp;
  readonly providers: readonly string[];
}

const FAMILIES: readonly Family[] = [
  { pattern: /^(gpt-|o\d|chatgpt-)/, providers: ['openai', 'azure', 'azure-openai'] },
  { pattern: /^claude-/, providers: ['anthropic', 'claude'] },
  { pattern: /^gemini-/, providers: ['gemini', 'google'] },
  { pattern: /^deepseek-(chat|reasoner)$/, providers: ['deepseek'] },
  {
    pattern: /^(mistral-|open-mistral-|mixtral-|codestral|ministral-|magistral-)/,
    providers: ['mistral'],
  },
  { pattern: /^(llama-3\.|qwen|qwq)/, providers: ['groq'] },
];

/** Table keys that are catch-alls for a family rather than a model anyone can ask for. */
const NOT_A_MODEL: ReadonlySet<string> = new Set(['claude', 'llama3', 'llama-3']);

/** One model of the built-in table. */
export interface BuiltinModel {
  readonly id: string;
  readonly contextLength: number;
}

function tableEntries(pattern: RegExp): BuiltinModel[] {
  return Object.entries(MODEL_LIMITS)
    .filter(([id]) => !NOT_A_MODEL.has(id) && pattern.test(id))
    .map(([id, limits]) => ({ id, contextLength: limits.contextWindow }));
}

/**
 * The table's models for `provider`. A provider the table has no family for (OpenRouter, a
 * custom OpenAI-compatible server) gets the family of its current model, so a llama.cpp server
 * running Qwen lists Qwen models; none at all when that model is unknown too.
 */
export function builtinModels(provider: string, currentModel: string | undefined): BuiltinModel[] {
  const name = provider.toLowerCase();
  const own = FAMILIES.find((family) => family.providers.includes(name));
  if (own) return tableEntries(own.pattern);
  if (currentModel === undefined) return [];
  const id = normalizeModelId(currentModel);
  const family = FAMILIES.find((candidate) => candidate.pattern.test(id));
  return family ? tableEntries(family.pattern) : [];
}
