/**
 * `GeminiProvider.listModels` on `GET /v1beta/models`. The scripted server has no Gemini listing
 * route, so the pages come from a `fetch` double (the adapter's `fetch` option); what is checked
 * is the adapter's reading: paging, the `generateContent` filter, ids, limits, the key in a
 * header, and a failed listing classified.
 */
import { describe, expect, it } from 'vitest';
import { GeminiProvider } from '../src/adapters/gemini-provider.js';
import { keyFreeClassification, rejectionOf, SECRET_KEY } from './support/gemini-rig.js';

interface Seen {
  readonly url: URL;
  readonly key: string | null;
}

/** A `fetch` answering each call with the next of `bodies` (status 200 unless given). */
function pagesFetch(bodies: Array<{ status?: number; body: unknown }>, seen: Seen[]) {
  return ((input: string | URL | Request, init?: RequestInit) => {
    seen.push({
      url: new URL(String(input)),
      key: new Headers(init?.headers).get('x-goog-api-key'),
    });
    const next = bodies.shift() ?? { body: {} };
    return Promise.resolve(
      new Response(JSON.stringify(next.body), {
        status: next.status ?? 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
  }) as typeof fetch;
}

const model = (name: string, input: number, methods = ['generateContent', 'countTokens']) => ({
  name: `models/${name}`,
  displayName: name,
  inputTokenLimit: input,
  outputTokenLimit: 65_536,
  supportedGenerationMethods: methods,
});

describe('gemini: listModels', () => {
  it('reads every page, keeps the models that generate content, and remembers their limits', async () => {
    const seen: Seen[] = [];
    const provider = new GeminiProvider({
      apiKey: SECRET_KEY,
      baseUrl: 'https://gemini.test',
      fetch: pagesFetch(
        [
          {
            body: {
              models: [
                model('gemini-2.5-flash', 1_048_576),
                model('text-embedding-004', 2_048, ['embedContent']),
              ],
              nextPageToken: 'page-2',
            },
          },
          {
            body: { models: [model('gemini-next-preview', 2_000_000), { displayName: 'no name' }] },
          },
        ],
        seen,
      ),
    });
    const models = await provider.listModels();
    expect(models).toEqual([
      {
        id: 'gemini-2.5-flash',
        ownedBy: 'google',
        contextLength: 1_048_576,
        maxOutputTokens: 65_536,
      },
      {
        id: 'gemini-next-preview',
        ownedBy: 'google',
        contextLength: 2_000_000,
        maxOutputTokens: 65_536,
      },
    ]);
    expect(provider.contextLength('gemini-next-preview')).toBe(2_000_000);
    expect(provider.contextLength('models/gemini-next-preview')).toBe(2_000_000);
    expect(seen.map((s) => s.url.pathname)).toEqual(['/v1beta/models', '/v1beta/models']);
    expect(seen[1]?.url.searchParams.get('pageToken')).toBe('page-2');
    expect(seen.every((s) => s.key === SECRET_KEY && !s.url.href.includes(SECRET_KEY))).toBe(true);
  });

  it('classifies a refused listing without the key', async () => {
    const provider = new GeminiProvider({
      apiKey: SECRET_KEY,
      fetch: pagesFetch(
        [
          {
            status: 403,
            body: {
              error: {
                code: 403,
                message:
                  "Method doesn't allow unregistered callers (callers without established identity).",
                status: 'PERMISSION_DENIED',
              },
            },
          },
        ],
        [],
      ),
    });
    const error = await rejectionOf(provider.listModels());
    expect(keyFreeClassification(error)).toMatchObject({ reason: 'auth', status: 403 });
  });
});
