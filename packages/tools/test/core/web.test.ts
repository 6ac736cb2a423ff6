import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlToReadable } from '../../src/core/html-to-markdown.js';
import { createImageTool, createSpeechTool, createVisionTool } from '../../src/core/media.js';
import { isPrivateAddress } from '../../src/core/url-safety.js';
import { createWebExtractTool } from '../../src/core/web-extract.js';
import { createWebSearchTool } from '../../src/core/web-search.js';
import { call, makeContext, text } from './context.js';

const PAGE = `<!doctype html><html><head><title>Test  Page</title><style>.x{}</style></head>
<body><nav>menu links</nav><main><h1>Hello</h1><p>Some <b>bold</b> and a <a href="/docs">link</a>.</p>
<ul><li>one</li><li>two</li></ul><pre><code>const a = 1 &lt; 2;</code></pre>
<table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table>
<script>alert('x')</script></main><footer>copyright</footer></body></html>`;

let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const routes: Record<string, () => void> = {
      '/page': () => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE),
      '/json': () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":[1,2]}'),
      '/plain': () => res.writeHead(200, { 'content-type': 'text/plain' }).end('just text'),
      '/binary': () =>
        res
          .writeHead(200, { 'content-type': 'application/octet-stream' })
          .end(Buffer.from([0, 1, 2])),
      '/redirect': () => res.writeHead(302, { location: '/plain' }).end(),
      '/loop': () => res.writeHead(302, { location: '/loop' }).end(),
      '/big': () => res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(100_000)),
    };
    const route = routes[req.url ?? ''];
    if (route) route();
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('nope');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  // undici keeps connections alive; drop them so close() returns at once.
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function extract(urls: string[], options = {}, format?: string) {
  const tool = createWebExtractTool({ allowPrivateNetwork: true, ...options });
  const out = JSON.parse(
    await text(call(tool, { urls, ...(format ? { format } : {}) }, makeContext())),
  );
  return out.results as Array<Record<string, unknown>>;
}

describe('web_extract condensing', () => {
  it('condenses a page over the limit and says from how long; shorter pages are left alone', async () => {
    const seen: string[] = [];
    const condense = async (page: { url: string; content: string }) => {
      seen.push(page.url);
      return `summary of ${page.content.length} characters`;
    };
    const [big, small] = await extract([`${base}/big`, `${base}/plain`], {
      condense,
      condenseAboveChars: 50_000,
    });
    expect(big).toMatchObject({
      content: 'summary of 100000 characters',
      condensed_from_chars: 100_000,
    });
    expect(small).toMatchObject({ content: 'just text' });
    expect(small).not.toHaveProperty('condensed_from_chars');
    expect(seen).toEqual([`${base}/big`]);
  });

  it('returns the page as read, capped, when condensing fails', async () => {
    const [big] = await extract([`${base}/big`], {
      condense: async () => {
        throw new Error('model down');
      },
      maxChars: 1_000,
    });
    expect(big?.condense_error).toMatch(/could not condense \(model down\)/);
    expect(String(big?.content).length).toBeLessThanOrEqual(1_100);
    expect(big?.truncated).toBe(true);
  });
});

describe('web_extract', () => {
  it('turns HTML into markdown without scripts or page chrome', async () => {
    const [page] = await extract([`${base}/page`]);
    expect(page?.title).toBe('Test Page');
    const content = String(page?.content);
    expect(content).toContain('# Hello');
    expect(content).toContain('**bold**');
    expect(content).toContain(`[link](${base}/docs)`);
    expect(content).toContain('- one\n- two');
    expect(content).toContain('```\nconst a = 1 < 2;\n```');
    expect(content).toContain('| k | v |');
    expect(content).not.toMatch(/alert|menu links|copyright/);
  });

  it('text format drops markdown syntax', async () => {
    const [page] = await extract([`${base}/page`], {}, 'text');
    expect(String(page?.content)).not.toContain('**');
    expect(String(page?.content)).toContain('bold');
  });

  it('handles JSON, plain text, redirects and reports per-URL errors', async () => {
    const results = await extract(
      [`${base}/json`, `${base}/redirect`, `${base}/missing`, `${base}/binary`, `${base}/loop`],
      { maxRedirects: 2 },
    );
    expect(results[0]?.content).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}');
    expect(results[1]).toMatchObject({ content: 'just text', final_url: `${base}/plain` });
    expect(results[2]?.error).toMatch(/HTTP 404/);
    expect(results[3]?.error).toMatch(/Unsupported content type "application\/octet-stream"/);
    expect(results[4]?.error).toMatch(/Too many redirects/);
  });

  it('caps the body by bytes and the content by characters', async () => {
    const [byBytes] = await extract([`${base}/big`], { maxBytes: 1000 });
    expect(byBytes).toMatchObject({ truncated: true });
    expect(String(byBytes?.content)).toHaveLength(1000);
    const [byChars] = await extract([`${base}/big`], { maxChars: 500 });
    expect(String(byChars?.content).length).toBeLessThanOrEqual(500);
    expect(String(byChars?.content)).toContain('characters omitted');
  });

  it('refuses private-network hosts by default and non-http schemes always', async () => {
    const tool = createWebExtractTool();
    const out = JSON.parse(
      await text(call(tool, { urls: [`${base}/page`, 'file:///etc/passwd'] }, makeContext())),
    );
    expect(out.results[0].error).toMatch(/private or local network/);
    expect(out.results[1].error).toMatch(/not supported/);
  });

  it('rejects more than five URLs', async () => {
    const tool = createWebExtractTool();
    await expect(call(tool, { urls: Array(6).fill(base) }, makeContext())).rejects.toThrow(
      /at most 5/,
    );
  });
});

describe('url safety and html conversion', () => {
  it('classifies addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '192.168.0.1',
      '169.254.169.254',
      '::1',
      'fd00::1',
      '::ffff:127.0.0.1',
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700::1111'])
      expect(isPrivateAddress(a), a).toBe(false);
  });

  it('prefers <article> and resolves images', () => {
    const page = htmlToReadable(
      '<body><div>noise</div><article><img src="a.png" alt="A"></article></body>',
      'markdown',
      'https://x.test/dir/',
    );
    expect(page.content).toBe('![A](https://x.test/dir/a.png)');
  });
});

describe('web_search and media tools', () => {
  it('web_search is hidden without a backend and returns results with one', async () => {
    expect(await createWebSearchTool().checkFn?.()).toBe(false);
    const tool = createWebSearchTool({
      name: 'fake',
      search: async (query, { limit }) =>
        Array.from({ length: 10 }, (_, i) => ({
          title: `${query} ${i}`,
          url: `https://r/${i}`,
          snippet: 's',
        })).slice(0, limit),
    });
    expect(await tool.checkFn?.()).toBe(true);
    const out = JSON.parse(await text(call(tool, { query: 'cats', limit: 2 }, makeContext())));
    expect(out.results).toEqual([
      { title: 'cats 0', url: 'https://r/0', description: 's' },
      { title: 'cats 1', url: 'https://r/1', description: 's' },
    ]);
  });

  it('media tools are hidden when unconfigured and call their backends when configured', async () => {
    for (const tool of [createVisionTool(), createImageTool(), createSpeechTool()]) {
      expect(await tool.checkFn?.(), tool.name).toBe(false);
    }
    const vision = createVisionTool({ analyze: async ({ question }) => `saw: ${question}` });
    expect(
      JSON.parse(await text(call(vision, { image_url: 'a.png', question: 'what?' }, makeContext())))
        .analysis,
    ).toBe('saw: what?');
    const image = createImageTool({
      generate: async ({ aspectRatio }) => ({ location: `/img/${aspectRatio}.png` }),
    });
    expect(JSON.parse(await text(call(image, { prompt: 'cat' }, makeContext()))).image).toBe(
      '/img/landscape.png',
    );
    const speech = createSpeechTool({ synthesize: async () => ({ path: '/tmp/a.ogg' }) });
    expect(JSON.parse(await text(call(speech, { text: 'hi' }, makeContext()))).media_tag).toBe(
      'MEDIA:/tmp/a.ogg',
    );
    await expect(call(speech, { text: 'x'.repeat(4001) }, makeContext())).rejects.toThrow(/4000/);
  });
});
