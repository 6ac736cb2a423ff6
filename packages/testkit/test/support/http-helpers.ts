/** Small helpers for talking to the scripted server over plain `fetch` in tests. */

/** One parsed SSE frame. */
export interface ParsedFrame {
  readonly event?: string;
  readonly data: string;
}

/** Splits an event-stream body into frames (`event:` and `data:` lines). */
export function parseSse(text: string): ParsedFrame[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      let event: string | undefined;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice('event: '.length);
        if (line.startsWith('data: ')) data.push(line.slice('data: '.length));
      }
      return event === undefined ? { data: data.join('\n') } : { event, data: data.join('\n') };
    });
}

/** The JSON payloads of the `data:` frames, `[DONE]` kept as the string. */
export function sseData(text: string): unknown[] {
  return parseSse(text).map((frame) =>
    frame.data === '[DONE]' ? '[DONE]' : JSON.parse(frame.data),
  );
}

/** POSTs `body` as JSON to `url`. */
export function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** A chat request body for `text`. */
export function chatBody(
  text: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { model: 'gpt-test', messages: [{ role: 'user', content: text }], ...extra };
}

/** Reads a body until it ends or fails; returns the text read and the failure, if any. */
export async function readUntilEnd(response: Response): Promise<{ text: string; error: unknown }> {
  const reader = response.body?.getReader();
  if (!reader) return { text: '', error: undefined };
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, error: undefined };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, error };
  }
}

/** Resolves `'timeout'` if `promise` has not settled within `ms`, else how it settled. */
export async function settlesWithin<T>(
  promise: Promise<T>,
  ms: number,
): Promise<'timeout' | { value: T } | { error: unknown }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
