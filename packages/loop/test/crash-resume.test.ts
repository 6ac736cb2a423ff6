import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { LocalEnvironment } from '@hermes/environments';
import { OpenAIChatProvider } from '@hermes/providers';
import { openSessionStore } from '@hermes/state';
import { script, startScriptedServer } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { Agent, RESUMED_RESULT_TEXT } from '../src/index.js';
import { KeepLastEngine } from './support/harness.js';
import { TestToolbox } from './support/test-toolbox.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

function newest(dir: string): number {
  let max = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    max = Math.max(max, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return max;
}

/** The built entry the child imports; a missing or stale build fails with how to fix it. */
function builtEntry(): string {
  const entry = join(packageRoot, 'dist', 'index.js');
  const hint = 'build it first (`npx tsup` in packages/loop; turbo `test` builds before testing)';
  if (!existsSync(entry)) throw new Error(`${entry} is missing: ${hint}`);
  if (statSync(entry).mtimeMs < newest(join(packageRoot, 'src')))
    throw new Error(`${entry} is older than src/: ${hint}`);
  return entry;
}

describe('resume after a crash mid-tool', () => {
  it('a turn killed with SIGKILL mid-tool resumes: the dangling call is recorded as interrupted', async () => {
    const home = process.env.HERMES_HOME ?? '';
    const dbPath = join(home, 'state.db');
    const server = await startScriptedServer(
      script().toolCall('hang', {}, 'call_hang').next().text('Picked up where we left off.'),
    );
    try {
      const child = spawn(
        process.execPath,
        [
          fileURLToPath(new URL('./support/crash-turn.mjs', import.meta.url)),
          JSON.stringify({
            entry: builtEntry(),
            dbPath,
            baseUrl: server.baseUrl('openai-chat'),
            sessionId: 'crashy',
            hermesHome: home,
          }),
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (d) => {
        stderr += String(d);
      });
      const started = new Promise<void>((resolve, reject) => {
        createInterface({ input: child.stdout }).on(
          'line',
          (line) => line === 'tool-started' && resolve(),
        );
        child.on('exit', () => reject(new Error(`child exited early: ${stderr}`)));
      });
      await started;
      child.kill('SIGKILL');
      await new Promise((resolve) => child.on('exit', resolve));

      const store = openSessionStore({ path: dbPath });
      const before = await store.getMessages('crashy');
      expect(before.map((r) => r.message.role)).toEqual(['user', 'assistant']);
      const agent = new Agent({
        provider: new OpenAIChatProvider({ apiKey: 'k', baseUrl: server.baseUrl('openai-chat') }),
        model: 'scripted-model',
        tools: new TestToolbox({ hang: { run: () => 'unused' } }),
        sessionStore: store,
        contextEngine: new KeepLastEngine(),
        environment: new LocalEnvironment({ loginShellEnv: false }),
        sessionId: 'crashy',
        hermesHome: home,
        cwd: home,
      });
      const result = await agent.runConversation('are you still there?');
      expect(result.finalResponse).toBe('Picked up where we left off.');
      const after = await store.getMessages('crashy');
      expect(after.map((r) => r.message.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'user',
        'assistant',
      ]);
      expect(after[2]?.message).toMatchObject({
        tool_call_id: 'call_hang',
        content: RESUMED_RESULT_TEXT,
      });
      const sent = server.requests[1]?.body as { messages: { role: string }[] };
      expect(sent.messages.map((m) => m.role)).toEqual([
        'system',
        'user',
        'assistant',
        'tool',
        'user',
      ]);
      await store.close();
    } finally {
      await server.close();
    }
  });
});
