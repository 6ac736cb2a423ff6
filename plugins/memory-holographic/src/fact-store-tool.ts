/** The `fact_store` tool: one tool, ten actions over the holographic memory. */
import type { ToolSchema } from '@hermes/plugin-sdk';
import { z } from 'zod';
import type { FactRetriever, ScoredFact } from './retrieval.js';
import type { Fact } from './store/fact-row.js';
import type { HolographicFactStore } from './store/fact-store.js';

/** The tool's name. */
export const FACT_STORE_TOOL_NAME = 'fact_store';

const id = z.coerce.number().int().positive();
const limit = z.coerce.number().int().min(1).max(50).optional();
const text = z.string().trim().min(1);
const tags = z.array(z.string()).max(20).optional();

/** Arguments of `fact_store`, one shape per action. */
export const FactStoreArgsSchema = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('add'),
    content: text.max(2_000),
    category: z.string().optional(),
    tags,
  }),
  z.object({
    action: z.literal('search'),
    query: text,
    category: z.string().optional(),
    min_trust: z.number().min(0).max(1).optional(),
    limit,
  }),
  z.object({ action: z.literal('probe'), entity: text, category: z.string().optional(), limit }),
  z.object({ action: z.literal('related'), entity: text, limit }),
  z.object({ action: z.literal('reason'), entities: z.array(text).min(1).max(8), limit }),
  z.object({ action: z.literal('contradict'), entity: z.string().optional(), limit }),
  z.object({
    action: z.literal('update'),
    fact_id: id,
    content: z.string().optional(),
    category: z.string().optional(),
    tags,
    trust_delta: z.number().min(-1).max(1).optional(),
  }),
  z.object({ action: z.literal('remove'), fact_id: id }),
  z.object({
    action: z.literal('list'),
    category: z.string().optional(),
    min_trust: z.number().min(0).max(1).optional(),
    limit,
  }),
  z.object({ action: z.literal('feedback'), fact_id: id, helpful: z.boolean() }),
]);

/** Validated `fact_store` arguments. */
export type FactStoreArgs = z.infer<typeof FactStoreArgsSchema>;

const ACTIONS = [
  'add',
  'search',
  'probe',
  'related',
  'reason',
  'contradict',
  'update',
  'remove',
  'list',
  'feedback',
];

/** The tool definition the model sees. */
export const factStoreToolSchema: ToolSchema = {
  type: 'function',
  function: {
    name: FACT_STORE_TOOL_NAME,
    description: [
      'Long-term fact memory with trust scores and entity links.',
      'add: store one self-contained fact (content, optional category and tags).',
      'search: find facts by meaning and words (query). probe: facts about one entity.',
      'related: entities that appear together with an entity. reason: facts connecting several entities.',
      'contradict: pairs of facts about the same entity that may disagree.',
      'update / remove: change or delete a fact by fact_id. list: facts by trust.',
      'feedback: mark a recalled fact helpful or not (adjusts its trust).',
    ].join(' '),
    parameters: {
      type: 'object',
      properties: {
        action: { type: 'string', enum: ACTIONS },
        content: { type: 'string', description: 'The fact (add) or its new text (update).' },
        query: { type: 'string', description: 'What to look for (search).' },
        entity: {
          type: 'string',
          description: 'A person, project or thing (probe, related, contradict).',
        },
        entities: {
          type: 'array',
          items: { type: 'string' },
          description: 'Entities to connect (reason).',
        },
        fact_id: { type: 'integer', description: 'The fact to update, remove or rate.' },
        category: {
          type: 'string',
          description: 'A bank such as general, user_pref, project, tool.',
        },
        tags: { type: 'array', items: { type: 'string' } },
        trust_delta: { type: 'number', description: 'Added to the trust score (update).' },
        helpful: { type: 'boolean', description: 'Whether the fact helped (feedback).' },
        min_trust: { type: 'number' },
        limit: { type: 'integer' },
      },
      required: ['action'],
    },
  },
};

const round = (value: number) => Math.round(value * 1000) / 1000;
const brief = (fact: Fact) => ({
  fact_id: fact.id,
  content: fact.content,
  category: fact.category,
  trust: round(fact.trust),
  tags: fact.tags,
});
const scored = (fact: ScoredFact) => ({ ...brief(fact), score: round(fact.score) });
const fail = (error: string) => JSON.stringify({ success: false, error });
const missing = (factId: number) =>
  fail(`No fact with fact_id ${factId}. Use search or list to find the id.`);

/** Runs one `fact_store` call and returns its JSON result; bad arguments return an error result. */
export function runFactStoreTool(
  args: unknown,
  store: HolographicFactStore,
  retriever: FactRetriever,
): string {
  const parsed = FactStoreArgsSchema.safeParse(args);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`)
      .join('; ');
    return fail(
      `Invalid fact_store arguments: ${issues}. "action" is one of ${ACTIONS.join(', ')}.`,
    );
  }
  const a = parsed.data;
  const ok = (body: Record<string, unknown>) => JSON.stringify({ success: true, ...body });
  switch (a.action) {
    case 'add': {
      const { id: factId, created } = store.addFact({
        content: a.content,
        ...(a.category ? { category: a.category } : {}),
        ...(a.tags ? { tags: a.tags } : {}),
      });
      return ok({
        fact_id: factId,
        message: created ? 'Fact stored.' : 'Fact already stored (same content); nothing added.',
      });
    }
    case 'search':
      return ok({
        results: retriever
          .search(a.query, {
            limit: a.limit ?? 5,
            ...(a.min_trust === undefined ? {} : { minTrust: a.min_trust }),
            ...(a.category ? { category: a.category } : {}),
          })
          .map(scored),
      });
    case 'probe':
      return ok({
        entity: a.entity,
        results: retriever
          .probe(a.entity, {
            limit: a.limit ?? 10,
            ...(a.category ? { category: a.category } : {}),
          })
          .map(scored),
      });
    case 'related':
      return ok({ entity: a.entity, related: retriever.related(a.entity, a.limit ?? 10) });
    case 'reason':
      return ok({
        entities: a.entities,
        results: retriever.reason(a.entities, a.limit ?? 10).map(scored),
      });
    case 'contradict':
      return ok({
        pairs: retriever
          .contradict({ limit: a.limit ?? 10, ...(a.entity ? { entity: a.entity } : {}) })
          .map((p) => ({
            a: brief(p.a),
            b: brief(p.b),
            shared_entities: p.sharedEntities,
            divergence: round(p.divergence),
          })),
      });
    case 'update': {
      const fact = store.updateFact(a.fact_id, {
        ...(a.content ? { content: a.content } : {}),
        ...(a.category ? { category: a.category } : {}),
        ...(a.tags ? { tags: a.tags } : {}),
        ...(a.trust_delta === undefined ? {} : { trustDelta: a.trust_delta }),
      });
      return fact ? ok({ fact: brief(fact), message: 'Fact updated.' }) : missing(a.fact_id);
    }
    case 'remove':
      return store.removeFact(a.fact_id)
        ? ok({ message: `Fact ${a.fact_id} removed.` })
        : missing(a.fact_id);
    case 'list':
      return ok({
        facts: store
          .listFacts({
            limit: a.limit ?? 20,
            ...(a.category ? { category: a.category } : {}),
            ...(a.min_trust === undefined ? {} : { minTrust: a.min_trust }),
          })
          .map(brief),
      });
    case 'feedback': {
      const fact = store.recordFeedback(a.fact_id, a.helpful);
      return fact
        ? ok({ fact: brief(fact), message: `Trust is now ${round(fact.trust)}.` })
        : missing(a.fact_id);
    }
  }
}
