/** Writes real sessions through the SQLite session store, as the agent would. */
import { openSessionStore } from '@hermes/state';

/** Two sessions: an old ended one about Rust, a recent one about a Python script with a tool call. */
export async function writeSessions(hermesHome: string): Promise<{ old: string; recent: string }> {
  const store = openSessionStore({ hermesHome });
  try {
    const old = await store.createSession({
      source: 'cli',
      title: 'Learning Rust',
      model: 'gpt-4o',
      startedAt: Date.now() - 40 * 86_400_000,
    });
    await store.appendMessages(old.id, [
      { role: 'user', content: 'How do lifetimes work in Rust?' },
      { role: 'assistant', content: 'Lifetimes tell the borrow checker how long references live.' },
    ]);
    await store.endSession(old.id, 'user_exit');
    const recent = await store.createSession({
      source: 'cli',
      title: 'Fix the deploy script',
      model: 'claude-x',
    });
    await store.appendMessages(recent.id, [
      { role: 'user', content: 'My deploy.py script crashes with a KeyError' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'read_file', arguments: '{"path":"deploy.py"}' },
          },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'call_1',
        name: 'read_file',
        content: 'config = os.environ["DEPLOY_TARGET"]',
      },
      { role: 'assistant', content: 'DEPLOY_TARGET is not set; export it before running.' },
    ]);
    return { old: old.id, recent: recent.id };
  } finally {
    await store.close();
  }
}
