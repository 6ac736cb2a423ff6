/**
 * The scripted model for the gateway's benchmarks, in a child process of its own: the model's
 * work (and the requests the testkit server records) stays out of the event loop and the heap
 * being measured. Every request gets the same streamed answer.
 *
 * Parent side: `startModel({ answer, delayMs? })` → `{ url, forget(), close() }`.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);

/** A script answering every request with `answer`, `delayMs` before each frame. */
async function answerScript(answer, delayMs) {
  const { script } = await import('@hermes/testkit');
  let turn = script().text(answer);
  if (delayMs > 0) turn = turn.delay(delayMs);
  return turn.usage({ inputTokens: 20, outputTokens: 12 }).times(1_000_000);
}

/** Child: serves the script; `forget` drops the recorded requests, `close` exits. */
async function serve({ answer, delayMs }) {
  const { startScriptedServer } = await import('@hermes/testkit');
  const server = await startScriptedServer(await answerScript(answer, delayMs));
  process.on('message', async (message) => {
    if (message === 'forget') {
      // The server keeps every request it saw (bodies with the tool schemas); a 10,000-turn run
      // would hold hundreds of MB in this child for nothing.
      server.reset(await answerScript(answer, delayMs));
      process.send?.('forgotten');
      return;
    }
    await server.close();
    process.exit(0);
  });
  process.send?.({ url: server.baseUrl('openai-chat') });
}

/**
 * Starts the model child. `url` is the OpenAI-compatible base URL (`…/v1`); `forget()` resolves
 * once the child dropped what it recorded (call it between requests, not during one).
 */
export async function startModel({ answer, delayMs = 0 }) {
  const child = fork(self, ['--serve', JSON.stringify({ answer, delayMs })], {
    stdio: 'inherit',
  });
  const [{ url }] = await once(child, 'message');
  return {
    url,
    async forget() {
      child.send('forget');
      await once(child, 'message');
    },
    async close() {
      const exited = once(child, 'exit');
      child.send('close');
      await exited;
    },
  };
}

if (process.argv[1] === self && process.argv[2] === '--serve') {
  await serve(JSON.parse(process.argv[3]));
}
