/**
 * End-to-end `hermes chat -q --provider gemini|bedrock`: the built binary against the testkit
 * speaking Gemini's REST/SSE wire and Bedrock's Converse event stream, with a real tool call
 * round trip in a temporary working directory and data home.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { runHermes, workDir } from './chat-harness.ts';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A model that writes a file, then answers `answer`. */
const writesThenAnswers = (file: string, answer: string) =>
  script()
    .toolCall('write_file', { path: file, content: `written by ${file}\n` })
    .next()
    .text(answer);

type Body = Record<string, unknown>;

describe('hermes chat -q on the native wires', () => {
  it('--provider gemini: a tool call round trip, the key only in x-goog-api-key', async () => {
    server = await startScriptedServer(writesThenAnswers('g.txt', 'Written with Gemini.'));
    const cwd = workDir();
    const result = await runHermes(
      ['chat', '-q', 'write g.txt', '--provider', 'gemini', '--model', 'gemini-2.5-flash'].concat([
        '--base-url',
        server.baseUrl('gemini'),
      ]),
      cwd,
      { GEMINI_API_KEY: 'AIza-e2e-test-key-0123456789' },
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Written with Gemini.\n');
    expect(readFileSync(join(cwd, 'g.txt'), 'utf8')).toBe('written by g.txt\n');
    const [first, second] = server.requests;
    expect(first?.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
    expect(first?.headers['x-goog-api-key']).toBe('AIza-e2e-test-key-0123456789');
    // The tool's result went back as a functionResponse part.
    expect(JSON.stringify((second?.body as Body | undefined)?.contents)).toContain(
      'functionResponse',
    );
    expect(server.remaining()).toBe(0);
  });

  it('--provider bedrock: a tool call round trip over ConverseStream, signed with the AWS default chain', async () => {
    server = await startScriptedServer(writesThenAnswers('b.txt', 'Written with Bedrock.'));
    const cwd = workDir();
    const missing = join(cwd, 'no-aws-config');
    const result = await runHermes(
      [
        'chat',
        '-q',
        'write b.txt',
        '--provider',
        'bedrock',
        '--model',
        'amazon.nova-lite-v1:0',
      ].concat(['--base-url', server.baseUrl('bedrock-converse')]),
      cwd,
      {
        AWS_ACCESS_KEY_ID: 'AKIDE2ETEST',
        AWS_SECRET_ACCESS_KEY: 'e2e-secret-access-key',
        AWS_REGION: 'eu-west-1',
        AWS_CONFIG_FILE: missing,
        AWS_SHARED_CREDENTIALS_FILE: missing,
      },
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stderr).not.toContain('e2e-secret-access-key');
    // The pinned SDK runs on Node 20; its warning about future releases is not shown.
    expect(result.stderr).not.toContain('NodeVersionSupportWarning');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Written with Bedrock.\n');
    expect(readFileSync(join(cwd, 'b.txt'), 'utf8')).toBe('written by b.txt\n');
    const [first, second] = server.requests;
    expect(first?.path).toBe('/model/amazon.nova-lite-v1%3A0/converse-stream');
    // SigV4 with the access key from the environment, for the region given.
    expect(first?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDE2ETEST\/\d{8}\/eu-west-1\/bedrock\/aws4_request/,
    );
    // The tool's result went back as a toolResult block.
    expect(JSON.stringify((second?.body as Body | undefined)?.messages)).toContain('toolResult');
    expect(server.remaining()).toBe(0);
  });
});
