/** Hybrid search ranking and the entity-based recall actions. */
import { describe, expect, it } from 'vitest';
import { extractEntities, ftsQuery } from '../src/index.js';
import { freshStore } from './support.js';

describe('search ranking', () => {
  it('puts the fact that matches most words and meaning first', () => {
    const { store, retriever } = freshStore();
    store.addFacts([
      { content: 'The project database is PostgreSQL 16 running in Docker.' },
      { content: 'The user prefers dark mode in every editor.' },
      { content: 'Database backups run nightly at 02:00.' },
      { content: 'Docker images are built with buildx.' },
    ]);
    const results = retriever.search('which database does the project use');
    expect(results[0]?.content).toBe('The project database is PostgreSQL 16 running in Docker.');
    expect(results.map((r) => r.content)).toContain('Database backups run nightly at 02:00.');
    expect(results.map((r) => r.content)).not.toContain(
      'The user prefers dark mode in every editor.',
    );
    for (let i = 1; i < results.length; i++)
      expect(results[i - 1]?.score).toBeGreaterThanOrEqual(results[i]?.score ?? 0);
  });

  it('weights 0.4 FTS + 0.3 Jaccard + 0.3 HRR, times trust', () => {
    const { store, retriever } = freshStore();
    store.addFact({ content: 'Ada deploys with Kamal.', trust: 0.8 });
    const [hit] = retriever.search('Ada deploys with Kamal');
    if (!hit) throw new Error('expected a hit');
    const relevance = 0.4 * hit.parts.fts + 0.3 * hit.parts.jaccard + 0.3 * hit.parts.hrr;
    expect(hit.parts.fts).toBe(1);
    expect(hit.parts.jaccard).toBe(1);
    expect(hit.parts.hrr).toBeGreaterThan(0.3);
    expect(hit.relevance).toBeCloseTo(relevance, 12);
    expect(hit.score).toBeCloseTo(relevance * 0.8, 12);
  });

  it('ranks an equally relevant fact with more trust higher, and drops trust below 0.3', () => {
    const { store, retriever } = freshStore();
    const low = store.addFact({ content: 'Staging runs on Fly.io in region ams.', trust: 0.4 }).id;
    const high = store.addFact({ content: 'Staging runs on Fly.io in region fra.', trust: 0.9 }).id;
    store.addFact({ content: 'Staging runs on Fly.io in region lhr.', trust: 0.2 });
    const ids = retriever.search('where does staging run on fly.io').map((r) => r.id);
    expect(ids).toEqual([high, low]);
  });

  it('takes at most limit × 3 FTS candidates and filters by category', () => {
    const { store, retriever } = freshStore();
    store.addFacts(
      Array.from({ length: 40 }, (_, i) => ({
        content: `Service ${i} logs to Loki.`,
        category: i % 2 ? 'ops' : 'general',
      })),
    );
    expect(retriever.search('loki logs', { limit: 4 })).toHaveLength(4);
    expect(
      retriever
        .search('loki logs', { limit: 50, category: 'ops' })
        .every((r) => r.category === 'ops'),
    ).toBe(true);
    expect(retriever.search('loki logs', { limit: 50, category: 'ops' })).toHaveLength(20);
    expect(retriever.search('the and of')).toEqual([]);
  });

  it('still finds facts when a query word is too common to OR on (more than 2,000 facts)', () => {
    const { store, retriever } = freshStore();
    store.addFacts(
      Array.from({ length: 2_100 }, (_, i) => ({ content: `Loki shard ${i} is healthy.` })),
    );
    store.addFact({ content: 'Loki retention is 30 days on the zebra cluster.' });
    expect(retriever.search('loki zebra retention')[0]?.content).toBe(
      'Loki retention is 30 days on the zebra cluster.',
    );
    expect(retriever.search('loki', { limit: 3 })).toHaveLength(3);
    expect(retriever.search('loki healthy', { limit: 3 })).toHaveLength(3);
  });

  it('quotes every word so user text is never FTS syntax', () => {
    expect(ftsQuery('NEAR(alpha beta) OR "gamma" delta* it"s')).toBe(
      '"near" OR "alpha" OR "beta" OR "gamma" OR "delta"',
    );
    expect(ftsQuery('...')).toBeUndefined();
  });
});

describe('entities, probe, related, reason, contradict', () => {
  it('extracts capitalized names and quoted terms', () => {
    expect(extractEntities('Ada Lovelace uses "neovim" with PostgreSQL.')).toEqual([
      'neovim',
      'ada lovelace',
      'postgresql',
    ]);
  });

  function seed() {
    const context = freshStore();
    context.store.addFacts([
      { content: 'Ada maintains the Billing service.' },
      { content: 'Ada prefers Helix as her editor.' },
      { content: 'The Billing service talks to Stripe.' },
      { content: 'Grace owns the Search service.' },
    ]);
    return context;
  }

  it('probe returns the facts about an entity', () => {
    const { retriever } = seed();
    const contents = retriever.probe('Ada').map((r) => r.content);
    expect(contents.sort()).toEqual([
      'Ada maintains the Billing service.',
      'Ada prefers Helix as her editor.',
    ]);
    expect(retriever.probe('nobody')).toEqual([]);
  });

  it('related lists co-occurring entities, most shared first', () => {
    const { retriever } = seed();
    expect(retriever.related('billing')).toEqual([
      { entity: 'ada', sharedFacts: 1 },
      { entity: 'stripe', sharedFacts: 1 },
    ]);
  });

  it('reason ranks facts linking all the entities first', () => {
    const { retriever } = seed();
    const [first] = retriever.reason(['Ada', 'Billing']);
    expect(first?.content).toBe('Ada maintains the Billing service.');
  });

  it('contradict pairs differently worded facts about one entity', () => {
    const { store, retriever } = freshStore();
    store.addFacts([
      { content: 'Ada prefers Vim.' },
      { content: 'Ada switched editors last spring and now codes mostly in Helix.' },
      { content: 'Grace likes tea.' },
    ]);
    const pairs = retriever.contradict({ entity: 'ada' });
    expect(pairs).toHaveLength(1);
    expect(pairs[0]?.sharedEntities).toEqual(['ada']);
  });
});
