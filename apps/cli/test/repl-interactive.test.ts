/**
 * End-to-end REPL: the built `hermes chat` with stdin as a pipe, against a scripted model, in a
 * temporary HERMES_HOME and working directory.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import {
  configureScriptedModel,
  hermesHome,
  Interactive,
  killIfRunning,
  occurrences,
  waitForExit,
  waitForFile,
  workDir,
} from './chat-harness.ts';

let server: ScriptedServer | undefined;
let repl: Interactive | undefined;

afterEach(async () => {
  repl?.kill();
  repl = undefined;
  await server?.close();
  server = undefined;
});

describe('hermes chat (REPL through stdin)', () => {
  it('SIGINT mid-tool interrupts the turn; the REPL survives and answers the next line', async () => {
    server = await startScriptedServer(
      script()
        // A command that would run for ten minutes, with its pid on disk.
        .toolCall('terminal', {
          command: 'sleep 600 & echo $! > sleep.pid && touch started.flag && wait',
        })
        .text('Still here.')
        .match({ lastUserIncludes: 'are you there' }),
    );
    configureScriptedModel(server.url);
    const cwd = workDir();
    repl = new Interactive(['chat'], cwd);
    await repl.waitFor('Type /help');
    repl.send('start a long job');
    await waitForFile(join(cwd, 'started.flag'));
    const sleeper = Number(readFileSync(join(cwd, 'sleep.pid'), 'utf8'));
    onTestFinished(() => killIfRunning(sleeper));
    repl.child.kill('SIGINT');
    await repl.waitFor('Interrupted.');
    expect(repl.stdout).toMatch(/💻 terminal .*cancelled/);
    // The interrupt killed the running command rather than waiting for it to end.
    await waitForExit(sleeper);
    repl.send('are you there?');
    await repl.waitFor('Still here.');
    expect(await repl.end()).toBe(0);
    // History was written (one JSON string per entry).
    const history = readFileSync(join(hermesHome(), 'cli_history'), 'utf8').trim().split('\n');
    expect(history.map((line) => JSON.parse(line))).toEqual(['start a long job', 'are you there?']);
  });

  it('an approval answered [s]ession lets the same command run unprompted later in the session', async () => {
    server = await startScriptedServer(
      script()
        .toolCall('terminal', { command: 'rm -r somedir' })
        .text('Removed it.')
        .next()
        .toolCall('terminal', { command: 'rm -r somedir' })
        .match({ lastUserIncludes: 'again' })
        .text('Removed it again.'),
    );
    configureScriptedModel(server.url);
    const cwd = workDir();
    mkdirSync(join(cwd, 'somedir'));
    repl = new Interactive(['chat'], cwd);
    await repl.waitFor('Type /help');
    repl.send('remove somedir');
    await repl.waitFor('[o]nce / [s]ession / [a]lways / [d]eny');
    expect(repl.stdout).toContain('recursive delete'); // the reason
    expect(repl.stdout).toMatch(/^ {4}rm -r somedir$/m); // the command, on its own line
    repl.send('s');
    await repl.waitFor('Removed it.');
    expect(existsSync(join(cwd, 'somedir'))).toBe(false);
    mkdirSync(join(cwd, 'somedir'));
    repl.send('do it again');
    await repl.waitFor('Removed it again.');
    expect(existsSync(join(cwd, 'somedir'))).toBe(false);
    expect(occurrences(repl.stdout, '[o]nce / [s]ession')).toBe(1);
    expect(await repl.end()).toBe(0);
  });

  it('/new starts a new session and /resume brings an old one back by title', async () => {
    server = await startScriptedServer(
      script()
        .text('Noted: the code word is heron.')
        .text('Fresh start.')
        .match({ lastUserIncludes: 'hello again' })
        .text('The code word was heron.')
        .match({ lastUserIncludes: 'code word?' }),
    );
    configureScriptedModel(server.url);
    repl = new Interactive(['chat'], workDir());
    await repl.waitFor('Type /help');
    repl.send('remember the code word heron');
    await repl.waitFor('the code word is heron');
    repl.send('/title bird talk');
    await repl.waitFor('Title set: bird talk');
    repl.send('/new');
    await repl.waitFor('New session (the last one was');
    repl.send('hello again');
    await repl.waitFor('Fresh start.');
    // The new session's request did not carry the old conversation.
    expect(JSON.stringify(server.requests[1]?.body)).not.toContain('heron');
    repl.send('/resume');
    await repl.waitFor('Continue one with /resume');
    expect(repl.stdout).toMatch(/Recent sessions \(newest first\):\n(.*\n)*.*bird talk/);
    repl.send('/resume bird talk');
    await repl.waitFor('Resumed');
    repl.send('what was the code word?');
    await repl.waitFor('The code word was heron.');
    expect(JSON.stringify(server.requests[2]?.body)).toContain('remember the code word heron');
    repl.send('/quit');
    expect(await repl.exited).toBe(0);
  });

  it('slash commands answer without calling the model; multi-line input is one message', async () => {
    server = await startScriptedServer(
      script()
        .text('Got two lines.')
        .match({ lastUserIncludes: 'line two' })
        .text('Got the block.')
        .match({ lastUserIncludes: 'beta' }),
    );
    configureScriptedModel(server.url);
    repl = new Interactive(['chat'], workDir());
    await repl.waitFor('Type /help');
    repl.send('/help');
    await repl.waitFor('/resume [id|title]');
    repl.send('/tools');
    await repl.waitFor('write_file');
    repl.send('/model');
    await repl.waitFor('Model: scripted-model');
    repl.send('/nonsense');
    await repl.waitFor('Unknown command /nonsense');
    repl.send('line one \\');
    repl.send('line two');
    repl.send('"""');
    repl.send('alpha');
    repl.send('beta');
    repl.send('"""');
    repl.send('/usage');
    await repl.waitFor('This run: 2 turns');
    // `/model` lists the server's models (GET /v1/models); only the two messages call the model.
    const calls = server.requests.filter((r) => r.method === 'POST');
    expect(calls).toHaveLength(2);
    const users = calls.map((r) => {
      const body = r.body as { messages: { role: string; content: unknown }[] };
      return body.messages.filter((m) => m.role === 'user').at(-1)?.content;
    });
    expect(users).toEqual(['line one \nline two', 'alpha\nbeta']);
    expect(repl.stdout).toContain('Got two lines.');
    expect(repl.stdout).toContain('Got the block.');
    expect(await repl.end()).toBe(0);
  });
});
