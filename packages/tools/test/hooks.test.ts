import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type PostToolCallEvent, ToolRegistry } from '../src/index.js';
import { makeContext } from './support/context.js';

function setup() {
  const errors: string[] = [];
  const registry = new ToolRegistry({
    onHookError: (hook, error) => errors.push(`${hook}: ${String(error)}`),
  });
  const calls: unknown[] = [];
  registry.register({
    name: 'write_note',
    toolset: 'demo',
    description: 'Write a note',
    parameters: z.object({ text: z.string(), n: z.number().default(1) }),
    handler: (args) => {
      calls.push(args);
      return `wrote ${args.text}`;
    },
  });
  const post: PostToolCallEvent[] = [];
  registry.onPostToolCall((event) => {
    post.push(event);
  });
  return { registry, calls, post, errors };
}

describe('tool-call hooks', () => {
  const ctx = makeContext();

  it('a blocking pre hook: the result is exactly its message, the handler never runs, post sees blocked', async () => {
    const { registry, calls, post } = setup();
    registry.onPreToolCall(({ name }) =>
      name === 'write_note' ? { block: 'Blocked by policy: no notes today.' } : undefined,
    );
    const result = await registry.dispatch('write_note', { text: 'hi' }, ctx);
    expect(result.status).toBe('blocked');
    expect(result.content).toBe('Blocked by policy: no notes today.');
    expect(calls).toEqual([]);
    expect(post).toHaveLength(1);
    expect(post[0]).toMatchObject({
      name: 'write_note',
      status: 'blocked',
      content: 'Blocked by policy: no notes today.',
    });
  });

  it('pre hooks see validated, coerced arguments with defaults', async () => {
    const { registry } = setup();
    const seen: unknown[] = [];
    registry.onPreToolCall(({ args }) => {
      seen.push(args);
    });
    await registry.dispatch('write_note', '{"text":"a","n":"2"}', ctx);
    expect(seen).toEqual([{ text: 'a', n: 2 }]);
  });

  it('an async pre hook may block; later hooks do not run', async () => {
    const { registry, calls } = setup();
    let secondRan = false;
    registry.onPreToolCall(async () => ({ block: 'nope' }));
    registry.onPreToolCall(() => {
      secondRan = true;
    });
    expect((await registry.dispatch('write_note', { text: 'x' }, ctx)).content).toBe('nope');
    expect(secondRan).toBe(false);
    expect(calls).toEqual([]);
  });

  it('the post hook fires for ok and error outcomes with the final content and args', async () => {
    const { registry, post } = setup();
    await registry.dispatch('write_note', { text: 'ok' }, ctx);
    await registry.dispatch('write_note', { text: 3 }, ctx);
    await registry.dispatch('no_such_tool', {}, ctx);
    expect(post.map((e) => e.status)).toEqual(['ok', 'error', 'error']);
    expect(post[0]).toMatchObject({ content: 'wrote ok', args: { text: 'ok', n: 1 } });
    expect(post[0]?.ctx).toBe(ctx);
    expect(post[2]?.name).toBe('no_such_tool');
  });

  it('hooks that throw are reported and never break dispatch', async () => {
    const { registry, calls, errors } = setup();
    registry.onPreToolCall(() => {
      throw new Error('pre broke');
    });
    registry.onPostToolCall(() => {
      throw new Error('post broke');
    });
    const result = await registry.dispatch('write_note', { text: 'x' }, ctx);
    expect(result).toMatchObject({ status: 'ok', content: 'wrote x' });
    expect(calls).toHaveLength(1);
    expect(errors).toEqual(['preToolCall: Error: pre broke', 'postToolCall: Error: post broke']);
  });

  it('a non-block return value (or an empty block) does not block', async () => {
    const { registry, calls } = setup();
    registry.onPreToolCall(() => ({ block: '' }));
    expect((await registry.dispatch('write_note', { text: 'x' }, ctx)).status).toBe('ok');
    expect(calls).toHaveLength(1);
  });

  it('suppressHooks skips both hooks; removing a hook stops it', async () => {
    const { registry, post } = setup();
    const off = registry.onPreToolCall(() => ({ block: 'blocked' }));
    expect(
      (await registry.dispatch('write_note', { text: 'x' }, ctx, { suppressHooks: true })).status,
    ).toBe('ok');
    expect(post).toHaveLength(0);
    off();
    expect((await registry.dispatch('write_note', { text: 'x' }, ctx)).status).toBe('ok');
    expect(post).toHaveLength(1);
  });
});
