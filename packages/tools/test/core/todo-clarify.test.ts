import { describe, expect, it } from 'vitest';
import { clarifyTool } from '../../src/core/clarify.js';
import { createTodoTool, TodoStore } from '../../src/core/todo.js';
import { call, makeContext, text } from './context.js';

describe('todo', () => {
  it('writes, reads back, and keeps lists per session', async () => {
    const tool = createTodoTool(new TodoStore());
    const a = makeContext({ sessionId: 'a' });
    const written = JSON.parse(
      await text(call(tool, { todos: [{ id: '1', content: 'plan', status: 'in_progress' }] }, a)),
    );
    expect(written.todos).toEqual([{ id: '1', content: 'plan', status: 'in_progress' }]);
    expect(written.summary).toMatchObject({ total: 1, in_progress: 1 });
    expect(JSON.parse(await text(call(tool, {}, a))).todos).toHaveLength(1);
    expect(JSON.parse(await text(call(tool, {}, makeContext({ sessionId: 'b' })))).todos).toEqual(
      [],
    );
  });

  it('merge updates by id and appends; replace drops the rest', async () => {
    const tool = createTodoTool();
    const ctx = makeContext();
    await call(
      tool,
      {
        todos: [
          { id: '1', content: 'a' },
          { id: '2', content: 'b' },
        ],
      },
      ctx,
    );
    const merged = JSON.parse(
      await text(
        call(
          tool,
          {
            merge: true,
            todos: [
              { id: '1', status: 'completed' },
              { id: '3', content: 'c' },
            ],
          },
          ctx,
        ),
      ),
    );
    expect(merged.todos).toEqual([
      { id: '1', content: 'a', status: 'completed' },
      { id: '2', content: 'b', status: 'pending' },
      { id: '3', content: 'c', status: 'pending' },
    ]);
    expect(merged.summary).toMatchObject({ total: 3, completed: 1, pending: 2 });
    const replaced = JSON.parse(
      await text(call(tool, { todos: [{ id: '9', content: 'z', status: 'cancelled' }] }, ctx)),
    );
    expect(replaced.todos).toEqual([{ id: '9', content: 'z', status: 'cancelled' }]);
  });

  it('rejects an unknown status, a duplicate id, and a new task without content', async () => {
    const tool = createTodoTool();
    const ctx = makeContext();
    await expect(
      call(tool, { todos: [{ id: '1', content: 'x', status: 'done' }] }, ctx),
    ).rejects.toThrow();
    await expect(
      call(
        tool,
        {
          todos: [
            { id: '1', content: 'x' },
            { id: '1', content: 'y' },
          ],
        },
        ctx,
      ),
    ).rejects.toThrow(/twice/);
    await expect(call(tool, { merge: true, todos: [{ id: 'new' }] }, ctx)).rejects.toThrow(
      /needs content/,
    );
  });
});

describe('clarify', () => {
  it('asks through the callback and returns the answer', async () => {
    const asked: unknown[] = [];
    const ctx = makeContext({
      clarify: async (question, choices) => {
        asked.push([question, choices]);
        return 'blue';
      },
    });
    const out = JSON.parse(
      await text(call(clarifyTool, { question: 'Colour?', choices: ['red', 'blue'] }, ctx)),
    );
    expect(asked).toEqual([['Colour?', ['red', 'blue']]]);
    expect(out.user_response).toBe('blue');
    expect(clarifyTool.neverParallel).toBe(true);
  });

  it('refuses more than four choices', async () => {
    const ctx = makeContext({ clarify: async () => 'x' });
    await expect(
      call(clarifyTool, { question: 'q', choices: ['a', 'b', 'c', 'd', 'e'] }, ctx),
    ).rejects.toThrow(/at most 4/);
  });

  it('says so when no one can answer', async () => {
    await expect(call(clarifyTool, { question: 'q' }, makeContext())).rejects.toThrow(/headless/);
  });

  it('stops waiting when the turn is interrupted', async () => {
    const controller = new AbortController();
    const ctx = makeContext({
      signal: controller.signal,
      clarify: () => new Promise<string>(() => {}),
    });
    const pending = call(clarifyTool, { question: 'q' }, ctx);
    controller.abort();
    await expect(pending).rejects.toThrow(/interrupted/);
  });
});
