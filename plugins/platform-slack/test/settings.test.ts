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
      botToken: 'xoxb-env',
      appToken: 'xapp-env',
      apiUrl: 'https://slack.com/api/',
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

  it('refuses HTTP events for now', () => {
    expect(
      error(() => resolveSlackSettings({ mode: 'http', bot_token: 'a', app_token: 'b' }, {})),
    ).toMatchObject({ code: 'slack.mode_unsupported' });
  });
});
