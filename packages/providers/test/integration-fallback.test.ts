// The fallback chain end to end: createProvider with a primary on OpenAI Chat Completions and a
// fallback on Anthropic Messages, each on its own testkit server, over real HTTP.
import { faults, type ScriptedServer, script } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { createProvider } from '../src/create-provider.js';
import type { FallbackActivation } from '../src/fallback/index.js';
import { recordingSleep, streamedHello, useScriptedServers } from './support/integration.js';

const serve = useScriptedServers();

const ASK = streamedHello('primary-model');

/** Primary `openrouter` on `primary`, one fallback `anthropic` entry on `backup`. */
function chain(primary: ScriptedServer, backup: ScriptedServer) {
  const activations: FallbackActivation[] = [];
  const { sleep, waits } = recordingSleep();
  const created = createProvider(
    {
      provider: 'openrouter',
      model: 'primary-model',
      baseUrl: primary.baseUrl('openai-chat'),
      apiKeyEnv: 'PRIMARY_KEY',
      fallback: [
        {
          provider: 'anthropic',
          model: 'claude-backup',
          baseUrl: backup.baseUrl('anthropic-messages'),
          apiKeyEnv: 'BACKUP_KEY',
        },
      ],
    },
    {
      env: { PRIMARY_KEY: 'sk-primary-000000000001', BACKUP_KEY: 'sk-ant-backup-0000000002' },
      sleep,
      onFallback: (activation) => activations.push(activation),
    },
  );
  return { ...created, activations, waits };
}

describe('fallback chain over HTTP', () => {
  it('falls back at once on model-not-found, once per turn, and restores the primary next turn', async () => {
    const primary = await serve(
      script().fault(faults.modelNotFound('primary-model')).next().text('primary again'),
    );
    const backup = await serve(
      script().text('from the backup').next().fault(faults.unauthorized()),
    );
    const { provider, beginTurn, activations } = chain(primary, backup);

    beginTurn();
    const first = await provider.chat(ASK);
    expect(first.message.content).toBe('from the backup');
    expect(first.provider).toBe('anthropic');
    expect(activations).toEqual([
      {
        from: { provider: 'openrouter', model: 'primary-model' },
        to: { provider: 'anthropic', model: 'claude-backup' },
        reason: 'model_not_found',
      },
    ]);
    expect(backup.requests[0]?.protocol).toBe('anthropic-messages');
    expect(backup.requests[0]?.model).toBe('claude-backup');
    // The member's own key, in whichever header this SDK version authenticates with.
    const headers = backup.requests[0]?.headers ?? {};
    expect(headers['x-api-key'] ?? headers.authorization?.replace(/^Bearer /, '')).toBe(
      'sk-ant-backup-0000000002',
    );

    // Same turn: the backup answers (and fails); no second switch, no return to the primary.
    await expect(provider.chat(ASK)).rejects.toMatchObject({ code: 'provider.auth' });
    expect(activations).toHaveLength(1);
    expect(primary.requests).toHaveLength(1);

    beginTurn();
    const next = await provider.chat(ASK);
    expect(next.message.content).toBe('primary again');
    expect(next.provider).toBe('openrouter');
    expect(primary.requests).toHaveLength(2);
    expect(backup.requests).toHaveLength(2);
  });

  it('falls back on a rate limit only after the primary’s retries are spent', async () => {
    const primary = await serve(script().fault(faults.rateLimited(0)).times(3));
    const backup = await serve(script().text('rescued'));
    const { provider, beginTurn, activations, waits } = chain(primary, backup);

    beginTurn();
    const response = await provider.chat(ASK);
    expect(response.message.content).toBe('rescued');
    expect(primary.requests).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(activations.map((a) => a.reason)).toEqual(['rate_limit']);
  });

  it('does not fall back on a request the other provider would reject too', async () => {
    const primary = await serve(script().fault(faults.badRequest('messages: field required')));
    const backup = await serve(script().text('never'));
    const { provider, activations } = chain(primary, backup);
    await expect(provider.chat(ASK)).rejects.toMatchObject({ code: 'provider.format_error' });
    expect(activations).toEqual([]);
    expect(backup.requests).toHaveLength(0);
  });

  it('a member with its own credentials uses them as a pool: a rejected key gives way to the next', async () => {
    const primary = await serve(script().fault(faults.modelNotFound('primary-model')));
    const backup = await serve(script().fault(faults.unauthorized()).next().text('second key'));
    const { provider } = createProvider(
      {
        provider: 'openrouter',
        model: 'primary-model',
        baseUrl: primary.baseUrl('openai-chat'),
        apiKey: 'sk-primary-000000000001',
        fallback: [
          {
            provider: 'backup',
            model: 'backup-model',
            baseUrl: backup.baseUrl('openai-chat'),
            credentials: [
              { apiKey: 'sk-stored-revoked-000000003', label: 'old', source: 'file' },
              { apiKey: 'sk-stored-working-000000004', label: 'new', source: 'file' },
            ],
          },
        ],
      },
      // The pool keeps key health under HERMES_HOME: the test's own.
      { env: { HERMES_HOME: process.env.HERMES_HOME }, sleep: recordingSleep().sleep },
    );
    const response = await provider.chat(ASK);
    expect(response.message.content).toBe('second key');
    expect(backup.requests.map((request) => request.headers.authorization)).toEqual([
      'Bearer sk-stored-revoked-000000003',
      'Bearer sk-stored-working-000000004',
    ]);
  });
});
