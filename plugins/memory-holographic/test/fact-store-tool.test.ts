/** Every action of the `fact_store` tool, through the provider as the model would call it. */
import { describe, expect, it } from 'vitest';
import { HolographicMemoryProvider } from '../src/index.js';

type Reply = Record<string, unknown> & { success: boolean; error?: string };

async function started(): Promise<HolographicMemoryProvider> {
  const provider = new HolographicMemoryProvider();
  await provider.initialize({
    hermesHome: process.env.HERMES_HOME ?? '',
    sessionId: 's',
    platform: 'cli',
  });
  return provider;
}

async function call(
  provider: HolographicMemoryProvider,
  args: Record<string, unknown>,
): Promise<Reply> {
  const text = await provider.handleToolCall('fact_store', args);
  if (text === undefined) throw new Error('fact_store is the provider’s tool');
  return JSON.parse(text) as Reply;
}

describe('fact_store', () => {
  it('add stores once, search finds it, list shows it', async () => {
    const provider = await started();
    const added = await call(provider, {
      action: 'add',
      content: 'Ada uses PostgreSQL for Billing.',
      category: 'project',
      tags: ['db'],
    });
    expect(added).toMatchObject({ success: true, message: 'Fact stored.' });
    const again = await call(provider, {
      action: 'add',
      content: 'Ada uses PostgreSQL for Billing.',
    });
    expect(again).toMatchObject({
      success: true,
      fact_id: added.fact_id,
      message: expect.stringContaining('already stored'),
    });
    const found = await call(provider, { action: 'search', query: 'which database for billing' });
    expect(found.results).toMatchObject([
      { fact_id: added.fact_id, category: 'project', tags: ['db'], trust: 0.5 },
    ]);
    expect(await call(provider, { action: 'list', category: 'project' })).toMatchObject({
      facts: [{ fact_id: added.fact_id }],
    });
    await provider.shutdown();
  });

  it('probe, related, reason and contradict answer about entities', async () => {
    const provider = await started();
    await call(provider, { action: 'add', content: 'Ada maintains Billing.' });
    await call(provider, {
      action: 'add',
      content: 'Billing depends on Stripe webhooks arriving in order.',
    });
    expect(await call(provider, { action: 'probe', entity: 'Ada' })).toMatchObject({
      results: [{ content: 'Ada maintains Billing.' }],
    });
    expect(await call(provider, { action: 'related', entity: 'billing' })).toMatchObject({
      related: [{ entity: 'ada' }, { entity: 'stripe' }],
    });
    const reason = (await call(provider, {
      action: 'reason',
      entities: ['Ada', 'Billing'],
    })) as unknown as { results: Array<{ content: string; score: number }> };
    expect(reason.results.map((r) => r.content)).toEqual([
      'Ada maintains Billing.',
      'Billing depends on Stripe webhooks arriving in order.',
    ]);
    expect(reason.results[0]?.score).toBeGreaterThan(reason.results[1]?.score ?? 1);
    const contradict = await call(provider, { action: 'contradict', entity: 'billing' });
    expect(contradict).toMatchObject({ success: true, pairs: [{ shared_entities: ['billing'] }] });
    await provider.shutdown();
  });

  it('update, feedback and remove change the fact, and name a missing id', async () => {
    const provider = await started();
    const { fact_id: id } = await call(provider, {
      action: 'add',
      content: 'The cluster runs Kubernetes 1.29.',
    });
    expect(
      await call(provider, {
        action: 'update',
        fact_id: id,
        content: 'The cluster runs Kubernetes 1.30.',
        trust_delta: 0.2,
      }),
    ).toMatchObject({ fact: { content: 'The cluster runs Kubernetes 1.30.', trust: 0.7 } });
    expect(await call(provider, { action: 'feedback', fact_id: id, helpful: true })).toMatchObject({
      fact: { trust: 0.75 },
    });
    expect(await call(provider, { action: 'feedback', fact_id: id, helpful: false })).toMatchObject(
      { fact: { trust: 0.65 } },
    );
    expect(
      (await call(provider, { action: 'search', query: 'kubernetes version' })).results,
    ).toMatchObject([{ content: 'The cluster runs Kubernetes 1.30.' }]);
    expect(await call(provider, { action: 'remove', fact_id: id })).toMatchObject({
      success: true,
    });
    expect(await call(provider, { action: 'remove', fact_id: id })).toMatchObject({
      success: false,
      error: expect.stringContaining(`No fact with fact_id ${id}`),
    });
    expect(
      (await call(provider, { action: 'search', query: 'kubernetes version' })).results,
    ).toEqual([]);
    await provider.shutdown();
  });

  it('explains bad arguments', async () => {
    const provider = await started();
    const reply = await call(provider, { action: 'forget' });
    expect(reply.success).toBe(false);
    expect(reply.error).toContain(
      '"action" is one of add, search, probe, related, reason, contradict, update, remove, list, feedback',
    );
    expect((await call(provider, { action: 'add', content: '   ' })).error).toContain('content');
    expect(await provider.handleToolCall('other_tool', {})).toBeUndefined();
    await provider.shutdown();
  });
});
