/**
 * A fake OpenAI-compatible chat model on 127.0.0.1 for the end-to-end test: it answers every
 * request with `answer(lastUserMessage)`, streamed as server-sent events when asked to stream.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The running fake; `requests` holds the last user message of each call. */
export interface FakeModel {
  readonly baseUrl: string;
  readonly requests: string[];
  close(): Promise<void>;
}

function lastUserText(body: { messages?: Array<{ role: string; content: unknown }> }): string {
  const user = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user');
  const content = user?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((part: { text?: string }) => part.text ?? '').join('');
  return '';
}

/** Starts the fake model. */
export async function startFakeModel(answer: (userText: string) => string): Promise<FakeModel> {
  const requests: string[] = [];
  const server: Server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw || '{}') as { stream?: boolean; model?: string };
    const userText = lastUserText(body as never);
    requests.push(userText);
    const text = answer(userText);
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    const base = { id: 'chatcmpl-fake', created: 0, model: body.model ?? 'fake-model' };
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          ...base,
          object: 'chat.completion',
          choices: [
            { index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' },
          ],
          usage,
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      res.write(
        `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [choice], ...extra })}\n\n`,
      );
    chunk({ index: 0, delta: { role: 'assistant', content: text }, finish_reason: null });
    chunk({ index: 0, delta: {}, finish_reason: 'stop' }, { usage });
    res.end('data: [DONE]\n\n');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
