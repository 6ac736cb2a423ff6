/** Turning the many spellings of one model id into one, for table and override lookups. */

/** Vendor prefixes that Bedrock and similar hosts write with a dot: `us.anthropic.claude-…`. */
const DOTTED_VENDOR =
  /^(?:[a-z]{2}\.)?(?:anthropic|meta|mistral|amazon|deepseek|qwen|cohere|ai21)\./;

/**
 * A `-` between two short version numbers (`3-5`, `4-1`), which Anthropic writes where others
 * write a dot. Dates (`20250514`) and sizes (`70b`) are left alone.
 */
const DASHED_VERSION = /(?<=(?:^|[^0-9])[0-9]{1,2})-(?=[0-9]{1,2}(?:[^0-9a-z]|$))/g;

/**
 * The canonical form of a model id: lower case; the part after the last `/` (OpenRouter's
 * `anthropic/…`, Gemini's `models/…`); without a `:tag` (Ollama sizes, OpenRouter `:free`,
 * Bedrock `:0`); without a dotted vendor prefix; and with dashed version numbers dotted, so
 * `anthropic/claude-sonnet-4.5`, `claude-sonnet-4-5` and `claude-sonnet-4-5-20250929` agree.
 */
export function normalizeModelId(model: string): string {
  let id = model.trim().toLowerCase();
  id = id.slice(id.lastIndexOf('/') + 1);
  const colon = id.indexOf(':');
  if (colon !== -1) id = id.slice(0, colon);
  id = id.replace(DOTTED_VENDOR, '');
  return id.replace(DASHED_VERSION, '.');
}

/** Whether `id` (canonical) is `key` (canonical) or starts with it at a word boundary. */
export function matchesKey(id: string, key: string): boolean {
  if (id === key) return true;
  if (!id.startsWith(key)) return false;
  const next = id.charAt(key.length);
  return next === '-' || next === '_' || next === '@';
}
