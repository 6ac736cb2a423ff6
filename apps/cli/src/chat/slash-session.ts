/** Slash commands that move through sessions and the conversation: new, resume, title, model, undo, retry. */
import { contentText, lastUserIndex } from './conversation.js';
import type { Repl } from './repl.js';
import { findSession, recentSessions, sessionLine } from './session-lookup.js';

/** `/new` (`/reset`): the next message starts a new session. */
export async function newCommand(repl: Repl): Promise<undefined> {
  const previous = repl.session.agent.sessionId;
  await repl.switchSession(undefined);
  repl.say(previous ? `New session (the last one was ${previous}).` : 'New session.');
  return undefined;
}

/** `/resume`: lists recent sessions; `/resume <id|title>` continues one. */
export async function resumeCommand(repl: Repl, args: string): Promise<undefined> {
  const store = repl.session.store;
  if (!args) {
    const sessions = await recentSessions(store);
    if (sessions.length === 0) repl.say('No sessions yet.');
    else
      repl.say(
        [
          'Recent sessions (newest first):',
          ...sessions.map((s) => `  ${sessionLine(s)}`),
          'Continue one with /resume <id|title>.',
        ].join('\n'),
      );
    return undefined;
  }
  const found = await findSession(store, args);
  if (!found) {
    repl.say(`No session matches "${args}". Type /resume to list them.`);
    return undefined;
  }
  await repl.switchSession(found.id);
  const messages = await store.getMessages(found.id);
  repl.say(
    `Resumed ${found.id}${found.title ? ` "${found.title}"` : ''} (${messages.length} messages).`,
  );
  const last = [...messages]
    .reverse()
    .find((row) => row.message.role === 'assistant' && contentText(row.message.content));
  if (last)
    repl.say(
      repl.options.style.dim(`last answer: ${contentText(last.message.content).slice(0, 200)}`),
    );
  return undefined;
}

/** `/title`: shows the title; `/title <text>` sets it (after the first turn if none yet). */
export async function titleCommand(repl: Repl, args: string): Promise<undefined> {
  const id = repl.session.agent.sessionId;
  const store = repl.session.store;
  if (!args) {
    const current = id ? (await store.getSession(id))?.title : repl.pendingTitle;
    repl.say(current ? `Title: ${current}` : 'No title yet. Set one with /title <text>.');
    return undefined;
  }
  const title = args.slice(0, 200);
  if (id && (await store.getSession(id))) await store.updateSession(id, { title });
  else repl.pendingTitle = title;
  repl.say(`Title set: ${title}`);
  return undefined;
}

/** `/model`: shows the model; `/model <name>` switches from the next turn on. */
export function modelCommand(repl: Repl, args: string): undefined {
  const agent = repl.session.agent;
  if (!args) repl.say(`Model: ${agent.model}`);
  else {
    agent.switchModel(args);
    repl.say(`Model switched to ${args} (from the next message).`);
  }
  return undefined;
}

/** The conversation the next turn continues from (after an `/undo`, the shortened one). */
function conversation(repl: Repl) {
  return repl.pendingHistory ?? [...repl.session.agent.messages];
}

/**
 * `/undo`: the last user message and everything after it leave the conversation the model sees.
 * The rows stay in the session log (the store never deletes; `hermes sessions show` still has them).
 */
export function undoCommand(repl: Repl): undefined {
  const messages = conversation(repl);
  const index = lastUserIndex(messages);
  if (index < 0) {
    repl.say('Nothing to undo.');
    return undefined;
  }
  const text = contentText(messages[index]?.content ?? null);
  repl.pendingHistory = messages.slice(0, index);
  repl.say(`Undone: "${text.slice(0, 80)}"`);
  return undefined;
}

/** `/retry`: undoes the last exchange and sends the same message again. */
export function retryCommand(repl: Repl): string | undefined {
  const messages = conversation(repl);
  const index = lastUserIndex(messages);
  if (index < 0) {
    repl.say('Nothing to retry.');
    return undefined;
  }
  repl.pendingHistory = messages.slice(0, index);
  return contentText(messages[index]?.content ?? null);
}
