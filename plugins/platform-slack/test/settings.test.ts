/** `platforms.slack` and the environment, resolved. */
import { isHermesError } from '@hermes/plugin-sdk';
import { describe, expect, it } from 'vitest';
import { resolveSlackSettings } from '../src/index.ts';

const error = (run: () => unknown): unknown => {
  try {
    run();
  } catch (caught) {
    return caught;
  }
  throw new Error('did not throw');
};

describe('resolveSlackSettings', () => {
  it('takes the tokens from the environment when config has none, and defaults the rest', () => {
    const settings = resolveSlackSettings(
      { enabled: true, allowed_users: ['U1'] },
      { SLACK_BOT_TOKEN: 'xoxb-env', SLACK_APP_TOKEN: 'xapp-env' },
    );
    expect(settings).toEqual({
      mode: 'socket',
      botToken: 'xoxb-env',
      appToken: 'xapp-env',
      apiUrl: 'https://slack.com/api/',
      maxFileBytes: 20 * 1024 * 1024,
      pingIntervalMs: 10_000,
      pongTimeoutMs: 5_000,
    });
  });

  it('prefers config, and ends api_url with a slash', () => {
    const settings = resolveSlackSettings(
      { bot_token: 'xoxb-cfg', app_token: 'xapp-cfg', api_url: 'http://127.0.0.1:9/api' },
      { SLACK_BOT_TOKEN: 'xoxb-env', SLACK_APP_TOKEN: 'xapp-env' },
    );
    expect(settings).toMatchObject({
      botToken: 'xoxb-cfg',
      appToken: 'xapp-cfg',
      apiUrl: 'http://127.0.0.1:9/api/',
    });
  });

  it('names a missing token and its variable', () => {
    expect(error(() => resolveSlackSettings({ bot_token: 'xoxb-secret-1' }, {}))).toMatchObject({
      code: 'slack.config_invalid',
      message: 'platforms.slack.app_token (or SLACK_APP_TOKEN) is required for Socket Mode.',
    });
  });

  it('names bad fields without quoting any value', () => {
    const caught = error(() =>
      resolveSlackSettings({ bot_token: 42, app_token: 'xapp-secret-value', api_url: 'nope' }, {}),
    );
    expect(isHermesError(caught)).toBe(true);
    expect((caught as Error).message).toBe('platforms.slack is invalid: bot_token, api_url');
  });

  it('in http mode needs a signing secret, not an app token, and defaults the endpoint', () => {
    const settings = resolveSlackSettings(
      { mode: 'http', bot_token: 'xoxb-cfg' },
      { SLACK_SIGNING_SECRET: 'env-signing-secret' },
    );
    expect(settings).toEqual({
      mode: 'http',
      botToken: 'xoxb-cfg',
      apiUrl: 'https://slack.com/api/',
      maxFileBytes: 20 * 1024 * 1024,
      signingSecret: 'env-signing-secret',
      host: '127.0.0.1',
      port: 3000,
      path: '/slack/events',
    });
  });

  it('takes the endpoint and the file cap from config', () => {
    const settings = resolveSlackSettings(
      {
        mode: 'http',
        bot_token: 'xoxb-cfg',
        signing_secret: 'cfg-secret',
        http_host: '0.0.0.0',
        http_port: 0,
        http_path: '/hooks/slack',
        max_file_bytes: 1024,
      },
      { SLACK_SIGNING_SECRET: 'env-signing-secret' },
    );
    expect(settings).toMatchObject({
      signingSecret: 'cfg-secret',
      host: '0.0.0.0',
      port: 0,
      path: '/hooks/slack',
      maxFileBytes: 1024,
    });
  });

  it('names a missing signing secret and its variable in http mode, quoting no value', () => {
    const caught = error(() =>
      resolveSlackSettings({ mode: 'http', bot_token: 'xoxb-secret-2', app_token: 'xapp-x' }, {}),
    );
    expect(caught).toMatchObject({
      code: 'slack.config_invalid',
      message:
        'platforms.slack.signing_secret (or SLACK_SIGNING_SECRET) is required for HTTP events (mode: http).',
    });
    expect((caught as Error).message).not.toContain('xoxb-secret-2');
  });

  it('refuses a path without a leading slash and a port out of range', () => {
    const caught = error(() =>
      resolveSlackSettings(
        {
          mode: 'http',
          bot_token: 'a',
          signing_secret: 'b',
          http_path: 'events',
          http_port: 70_000,
        },
        {},
      ),
    );
    expect((caught as Error).message).toBe('platforms.slack is invalid: http_port, http_path');
  });
});
