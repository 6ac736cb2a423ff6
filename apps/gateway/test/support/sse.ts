/** A small server-sent-events reader for the routes no SDK covers (`/v1/runs/:id/events`). */

/** One server-sent event. */
export interface SseEvent {
  readonly event: string | undefined;
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
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length) yield { event, data: data.join('\n') };
    }
  }
}

/** Reads events until `stop` holds (inclusive) or the stream ends; the stream stays open. */
export async function collectSse(
  events: AsyncGenerator<SseEvent>,
  stop: (event: SseEvent) => boolean,
): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for (;;) {
    const next = await events.next();
    if (next.done) return out;
    out.push(next.value);
    if (stop(next.value)) return out;
  }
}

/** A run's last event. */
export const isRunEnd = (event: SseEvent): boolean =>
  /^run\.(completed|failed|cancelled)$/.test(event.event ?? '');
