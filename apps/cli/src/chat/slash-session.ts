/** Slash commands that move through sessions and the conversation: new, resume, title, undo, retry. */
import { contentText } from './conversation.js';
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

/**
 * `/undo`: the last user message and everything after it leave the conversation. In the session
 * log those rows are archived, not deleted (`hermes sessions show` still lists them), so a
 * resumed session does not bring them back.
 */
export async function undoCommand(repl: Repl): Promise<undefined> {
  const removed = await repl.session.agent.undo();
  if (removed === undefined) repl.say('Nothing to undo.');
  else repl.say(`Undone: "${contentText(removed.content).slice(0, 80)}"`);
  return undefined;
}

/** `/retry`: undoes the last exchange and sends the same message again. */
export async function retryCommand(repl: Repl): Promise<string | undefined> {
  const removed = await repl.session.agent.undo();
  if (removed === undefined) {
    repl.say('Nothing to retry.');
    return undefined;
  }
  return contentText(removed.content);
}
