/**
 * The load generator of the latency benchmark, in a child process of its own so its parsing
 * does not share an event loop with the server being measured: rounds of concurrent streaming
 * chat completions over `node:http` (keep-alive), each timed to its first content token and to
 * the end of its stream.
 *
 * Parent side: `startLoad()` → `{ run(endpoint, count, { key, answer, sessions? }) → results,
 * steady(endpoint, count, expect, { durationMs, warmupMs }) → results, close() }` (`run`: one
 * round of `count` requests sent at once; `steady`: `count` clients in a closed loop); each result is `{ id, session, sent, first, last, ok }` (ms; `ok` when the streamed
 * text was `answer`; `session` the answer's `X-Hermes-Session-Id`). With `sessions`, request `i`
 * continues session `sessions[i]`.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const now = () => performance.timeOrigin + performance.now();

/** Reads `data:` frames from an SSE response, calling `onChunk` with each parsed JSON chunk. */
function readFrames(res, onChunk) {
  let buffer = '';
  res.setEncoding('utf8');
  res.on('data', (text) => {
    buffer += text;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      // Named events (hermes.tool.progress, hermes.session) are not content.
      if (frame.startsWith('data: {')) onChunk(JSON.parse(frame.slice(6)));
    }
  });
}

/** One streaming chat completion: ms to the first content token and to the end of the stream. */
function oneStream(agent, endpoint, expect, session, retried = false) {
  const { key, answer } = expect;
  return new Promise((resolve, reject) => {
    // Stamped when the request has left (written to the socket), not when it was created:
    // building 200 requests at once takes the client itself a while.
    let sent = now();
    let first;
    let id;
    let text = '';
    const req = http.request(endpoint, {
      method: 'POST',
      agent,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        ...(session ? { 'x-hermes-session-id': session } : {}),
      },
    });
    req.on('response', (res) => {
      const answered = res.headers['x-hermes-session-id'];
      readFrames(res, (chunk) => {
        id ??= chunk.id;
        const delta = chunk.choices?.[0]?.delta?.content;
        if (!delta) return;
        first ??= now();
        text += delta;
      });
      res.on('end', () => {
        const last = now();
        const ok = text === answer;
        resolve({ id, session: answered, sent, first: first - sent, last: last - sent, ok });
      });
    });
    req.on('error', (error) => {
      // The server closed an idle keep-alive socket just as this request reused it (Node's
      // documented race): the request never arrived, so send it again on a fresh socket.
      if (req.reusedSocket && error.code === 'ECONNRESET' && !retried) {
        oneStream(agent, endpoint, expect, session, true).then(resolve, reject);
      } else reject(error);
    });
    req.on('finish', () => {
      sent = now();
    });
    req.end(
      JSON.stringify({
        model: 'hermes-agent',
        stream: true,
        // As the agent asks the model (openai-chat-request.ts): the usage comes in one more
        // frame, which the scripted model also delays, so the model's own baseline must wait
        // for it too or every stream through the server looks one frame (50 ms) slower.
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'Say the sentence.' }],
      }),
    );
  });
}

/**
 * `count` clients, each sending its next request as soon as its last stream ended, for
 * `durationMs`; results of the requests sent after `warmupMs` (the steady state, not the ramp).
 */
async function closedLoop(agent, { endpoint, count, expect, durationMs, warmupMs }) {
  const start = now();
  const results = [];
  const client = async (i) => {
    while (now() - start < durationMs) {
      const result = await oneStream(agent, endpoint, expect, expect.sessions?.[i]);
      if (result.sent - start >= warmupMs) results.push(result);
    }
  };
  await Promise.all(Array.from({ length: count }, (_, i) => client(i)));
  return results;
}

/** Child: one round of concurrent streams (or one closed-loop run) per message from the parent. */
function generate() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  process.on('message', async (message) => {
    const { endpoint, count, expect } = message;
    const results = message.durationMs
      ? await closedLoop(agent, message)
      : await Promise.all(
          Array.from({ length: count }, (_, i) =>
            oneStream(agent, endpoint, expect, expect.sessions?.[i]),
          ),
        );
    process.send?.(results);
  });
  process.send?.('ready');
}

/** Starts the load child. */
export async function startLoad() {
  const child = fork(self, ['--generate'], { stdio: 'inherit' });
  await once(child, 'message');
  return {
    async run(endpoint, count, expect) {
      child.send({ endpoint, count, expect });
      const [results] = await once(child, 'message');
      return results;
    },
    /** `count` clients in a closed loop for `durationMs`; the requests sent after `warmupMs`. */
    async steady(endpoint, count, expect, { durationMs, warmupMs }) {
      child.send({ endpoint, count, expect, durationMs, warmupMs });
      const [results] = await once(child, 'message');
      return results;
    },
    close() {
      child.kill();
    },
  };
}

if (process.argv[1] === self && process.argv[2] === '--generate') generate();
