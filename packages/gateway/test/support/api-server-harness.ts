/**
 * Starts a real ApiServerAdapter on a free loopback port, connected to an InboundHandler (by
 * default a {@link FakePipeline}), with an official `openai` client pointed at it, and a raw
 * `fetch` helper for the routes no SDK covers. Plus a small SSE reader for those routes.
 */
import OpenAI from 'openai';
import { ApiServerAdapter } from '../../src/adapters/api-server/api-server-adapter.js';
import {
  type ApiServerSettingsInput,
  resolveApiServerSettings,
} from '../../src/adapters/api-server/api-server-settings.js';
import type { JobsApi } from '../../src/adapters/api-server/jobs-api.js';
import type { InboundHandler } from '../../src/messages.js';
import { FakePipeline } from './api-server-fake-pipeline.js';

/** The bearer key every harness uses. */
export const TEST_KEY = 'test-key-0123456789abcdef';

/** A running server and what talks to it. */
export interface ApiHarness {
  readonly adapter: ApiServerAdapter;
  readonly pipeline: FakePipeline;
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  readonly client: OpenAI;
  /** `fetch` against the server with the key (unless `headers.authorization` says otherwise). */
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

/** Starts a server; `settings` are `platforms.api_server` keys (snake_case). */
export async function startApiServer(
  settings: ApiServerSettingsInput = {},
  options: {
    handler?: InboundHandler;
    health?: () => unknown;
    streamHeaderWaitMs?: number;
    jobs?: JobsApi;
  } = {},
): Promise<ApiHarness> {
  const pipeline = new FakePipeline();
  const adapter = new ApiServerAdapter({
    settings: resolveApiServerSettings({ key: TEST_KEY, port: 0, ...settings }),
    ...(options.health ? { health: options.health } : {}),
    ...(options.streamHeaderWaitMs ? { streamHeaderWaitMs: options.streamHeaderWaitMs } : {}),
    ...(options.jobs ? { jobs: options.jobs } : {}),
  });
  await adapter.connect(options.handler ?? pipeline.handler);
  const url = `http://127.0.0.1:${adapter.listening?.port}`;
  const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: TEST_KEY, maxRetries: 0 });
  return {
    adapter,
    pipeline,
    url,
    client,
    request(path, init = {}) {
      const { json, headers, ...rest } = init;
      return fetch(`${url}${path}`, {
        ...rest,
        headers: {
          authorization: `Bearer ${TEST_KEY}`,
          ...(json === undefined ? {} : { 'content-type': 'application/json' }),
          ...(headers as Record<string, string> | undefined),
        },
        ...(json === undefined
          ? {}
          : { method: rest.method ?? 'POST', body: JSON.stringify(json) }),
      });
    },
    close: () => adapter.disconnect(),
  };
}

/** One server-sent event. */
export interface SseEvent {
  readonly event: string | undefined;
  readonly id: string | undefined;
  readonly data: string;
}

/** Reads a response body as server-sent events, one at a time, until it ends. */
export async function* readSse(response: Response): AsyncGenerator<SseEvent> {
  const body = response.body;
  if (!body) return;
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      let event: string | undefined;
      let id: string | undefined;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('id: ')) id = line.slice(4);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length) yield { event, id, data: data.join('\n') };
    }
  }
}

/**
 * Reads events until `stop` says so (inclusive) or the stream ends. The stream stays open, so a
 * later call goes on where this one stopped.
 */
export async function collectSse(
  events: AsyncGenerator<SseEvent>,
  stop: (event: SseEvent) => boolean = () => false,
): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for (;;) {
    const next = await events.next();
    if (next.done) return out;
    out.push(next.value);
    if (stop(next.value)) return out;
  }
}
