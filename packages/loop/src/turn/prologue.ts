/**
 * The turn's prologue (seed 3.2): clean the input, finish a crashed turn's dangling calls, append
 * and persist the user message, restore or build the system prompt, preflight compression, and
 * recall memory for this message.
 */
import type { ChatMessage, UserMessage } from '@hermes/protocol';
import type { PromptHolder } from '../prompt/prompt-cache.js';
import { restoreOrBuildPrompt } from '../prompt/prompt-cache.js';
import type { PromptParts } from '../prompt/system-prompt.js';
import { danglingToolResults } from './resume.js';
import { sanitizeUserInput } from './sanitize-input.js';
import type { TurnState } from './turn-state.js';

/** Compression passes allowed before the first request. */
export const MAX_PREFLIGHT_PASSES = 3;

/** Options of the prologue. */
export interface PrologueOptions {
  readonly text: string;
  readonly persistUserMessage: boolean;
  readonly prompt: PromptHolder;
  readonly promptParts: () => Promise<PromptParts>;
  readonly promptRuntime: PromptParts['runtime'];
}

/** Runs the prologue; resolves to the system prompt. Persistence failures propagate. */
export async function runPrologue(state: TurnState, options: PrologueOptions): Promise<string> {
  const { messages, writer, runtime } = state;
  const dangling = danglingToolResults(messages);
  if (dangling.length) {
    messages.push(...dangling);
    await writer.persist(messages);
  }
  const user: UserMessage = { role: 'user', content: sanitizeUserInput(options.text) };
  messages.push(user);
  if (options.persistUserMessage) await writer.persist(messages);
  else writer.markPersisted([user]);
  const systemPrompt = await restoreOrBuildPrompt(
    options.prompt,
    runtime.store,
    writer.sessionId,
    options.promptParts,
    options.promptRuntime,
  );
  await preflightCompression(state, systemPrompt);
  await recallMemory(state, user);
  await addHookContext(state, user);
  return systemPrompt;
}

async function preflightCompression(state: TurnState, systemPrompt: string): Promise<void> {
  const { engine } = state.runtime;
  if (!state.gate.automatic) return;
  for (let pass = 0; pass < MAX_PREFLIGHT_PASSES; pass += 1) {
    const tokens = state.requestTokens() + Math.ceil(systemPrompt.length / 4);
    const wanted =
      engine.shouldCompressPreflight(state.messages) ||
      (!engine.shouldDeferPreflightToRealUsage(tokens) && engine.shouldCompress(tokens));
    if (!wanted || !state.gate.canAttempt) return;
    const report = await state.compress('preflight', { tokens });
    if (!report.ok || !report.changed) return;
  }
}

/** `preLlmCall`: context for this turn's requests, after any recalled memory; never stored. */
async function addHookContext(state: TurnState, user: ChatMessage): Promise<void> {
  const hooks = state.runtime.hooks;
  if (!hooks?.has('preLlmCall') || typeof user.content !== 'string') return;
  const text = await hooks.preLlmCall({
    sessionId: state.writer.sessionId,
    userMessage: user.content,
  });
  if (text) state.hookContext = { message: user, text };
}

async function recallMemory(state: TurnState, user: ChatMessage): Promise<void> {
  const memory = state.runtime.memory;
  if (!memory?.prefetch || typeof user.content !== 'string') return;
  try {
    const recalled = await memory.prefetch(user.content, state.runtime.control.signal);
    if (!recalled?.fenced) return;
    // Sent to the model with this message only; the stored row keeps what the user typed.
    state.writer.apiContent.set(user, `${user.content}\n\n${recalled.fenced}`);
    state.runtime.events.emit({
      type: 'memory_recall',
      turnId: state.turnId,
      provider: recalled.provider,
      chars: recalled.fenced.length,
    });
  } catch {
    // Recall is a bonus; a failing provider must not cost the user their turn.
  }
}
