/** The questions of `hermes setup`: provider, base URL, model, key. */
import { HermesError } from '@hermes/protocol';
import { keyVariablesFor } from '@hermes/providers';
import { DEFAULT_MODELS, maskValue } from '@hermes/runtime';
import type { Prompter } from './prompter.js';

/** What the wizard (or the flags) decided. */
export interface SetupAnswers {
  readonly provider: string;
  readonly model: string;
  /** Empty: the provider's default endpoint. */
  readonly baseUrl: string | undefined;
  /** A new key to store; undefined keeps whatever is there. */
  readonly apiKey: string | undefined;
}

/** What is configured now, offered as each question's default. */
export interface SetupCurrent {
  readonly provider?: string;
  readonly model?: string;
  readonly baseUrl?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The error for setup input that ended before a required answer. */
export function incomplete(message: string): HermesError {
  return new HermesError('setup.incomplete', message);
}

/** The providers offered by number. */
export const PROVIDER_CHOICES = [
  { name: 'openrouter', about: 'hundreds of models behind one key' },
  { name: 'anthropic', about: 'Claude models' },
  { name: 'openai', about: 'GPT models' },
  {
    name: 'custom',
    about: 'a local or self-hosted OpenAI-compatible server (llama.cpp, vLLM, Ollama)',
  },
] as const;

/** The variable a provider's key is stored under in `.env`. */
export function keyVariableOf(provider: string): string {
  return keyVariablesFor(provider)[0] ?? `${provider.toUpperCase()}_API_KEY`;
}

async function askProvider(prompter: Prompter, current: SetupCurrent): Promise<string> {
  const list = PROVIDER_CHOICES.map((c, i) => `  ${i + 1}) ${c.name.padEnd(10)} ${c.about}`).join(
    '\n',
  );
  const fallback = current.provider ?? 'openrouter';
  const answer = (
    await prompter.ask(`Which model provider?\n${list}\nChoice [${fallback}]: `)
  )?.trim();
  if (!answer) return fallback;
  const byNumber = PROVIDER_CHOICES[Number(answer) - 1];
  return byNumber ? byNumber.name : answer.toLowerCase();
}

async function askBaseUrl(prompter: Prompter, provider: string, current: SetupCurrent) {
  const keep = current.provider === provider ? current.baseUrl : undefined;
  for (;;) {
    const hint = keep
      ? ` [${keep}]`
      : provider === 'custom'
        ? ' (e.g. http://127.0.0.1:8080/v1)'
        : ' (Enter for the default)';
    const answer = (await prompter.ask(`Base URL${hint}: `))?.trim();
    const value = answer || keep;
    if (value !== undefined && /^https?:\/\/\S+$/.test(value)) return value;
    if (value === undefined && provider !== 'custom') return undefined;
    if (answer === undefined) throw incomplete('a custom provider needs a base URL (--base-url)');
    prompter.say(
      value === undefined
        ? '  A custom provider needs its base URL.'
        : '  That is not an http(s) URL; try again.',
    );
  }
}

async function askKey(prompter: Prompter, provider: string, current: SetupCurrent) {
  const variable = keyVariableOf(provider);
  const existing = current.env[variable];
  const keepNote = existing
    ? `Enter keeps the current ${maskValue(existing)}`
    : provider === 'custom'
      ? 'Enter if the server needs none'
      : 'Enter to skip';
  const answer = (
    await prompter.askSecret(`API key (saved as ${variable} in .env; ${keepNote}; not shown): `)
  )?.trim();
  return answer || undefined;
}

/** Asks for everything not already given; returns the answers. */
export async function runWizard(
  prompter: Prompter,
  current: SetupCurrent,
  given: Partial<SetupAnswers>,
): Promise<SetupAnswers> {
  const provider = given.provider ?? (await askProvider(prompter, current));
  const baseUrl = given.baseUrl ?? (await askBaseUrl(prompter, provider, current));
  const suggested =
    (current.provider === provider ? current.model : undefined) ?? DEFAULT_MODELS[provider] ?? '';
  let model = given.model;
  while (model === undefined) {
    const answer = await prompter.ask(`Model${suggested ? ` [${suggested}]` : ''}: `);
    model = answer?.trim() || suggested || undefined;
    if (model === undefined && answer === undefined) throw incomplete('no model given (--model)');
  }
  const apiKey = given.apiKey ?? (await askKey(prompter, provider, current));
  return { provider, model, baseUrl, apiKey };
}
