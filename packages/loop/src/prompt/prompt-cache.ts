/**
 * Restore-or-build for the system prompt. The prompt is cached on the agent and stored by hash
 * in the session store, so a restarted process sends the same bytes; it is rebuilt only when the
 * runtime it states (model, provider, cwd, platform) changed or the cache was dropped.
 */
import type { SessionStore } from '@hermes/state';
import {
  buildSystemPrompt,
  type PromptParts,
  promptHash,
  promptMatchesRuntime,
} from './system-prompt.js';

/** The agent's cached prompt; `undefined` forces a rebuild at the next turn. */
export interface PromptHolder {
  text: string | undefined;
}

/** Returns the prompt to use for this turn, restoring or building it as needed. */
export async function restoreOrBuildPrompt(
  holder: PromptHolder,
  store: SessionStore,
  sessionId: string,
  parts: () => Promise<PromptParts>,
  runtime: PromptParts['runtime'],
): Promise<string> {
  if (holder.text !== undefined && promptMatchesRuntime(holder.text, runtime)) return holder.text;
  if (holder.text === undefined) {
    const stored = await storedPrompt(store, sessionId);
    if (stored !== undefined && promptMatchesRuntime(stored, runtime)) {
      holder.text = stored;
      return stored;
    }
  }
  const text = await buildSystemPrompt(await parts());
  const hash = promptHash(text);
  await store.saveSystemPrompt(hash, text);
  await store.updateSession(sessionId, { systemPromptHash: hash });
  holder.text = text;
  return text;
}

async function storedPrompt(store: SessionStore, sessionId: string): Promise<string | undefined> {
  const session = await store.getSession(sessionId);
  if (!session?.systemPromptHash) return undefined;
  return store.getSystemPrompt(session.systemPromptHash);
}
