import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../src/messages.js';
import { PairingStore } from '../src/pairing/pairing-store.js';
import { authorize } from '../src/pipeline/authorize.js';
import { resolveGatewaySettings } from '../src/settings/gateway-settings.js';
import { resolvePlatformSettings } from '../src/settings/platform-settings.js';
import { type Harness, RecordingSink, startHarness } from './support/gateway-harness.js';
import { LoopbackAdapter } from './support/loopback-adapter.js';

const home = () => process.env.HERMES_HOME ?? '';

function message(userId: string, isDirect = true): InboundMessage {
  return {
    platform: 'loopback',
    chatId: isDirect ? `dm-${userId}` : 'group-1',
    userId,
    text: 'hi',
    messageId: 'm1',
    receivedAt: 0,
    isDirect,
  };
}

describe('authorize (order of the rules)', () => {
  const adapter = new LoopbackAdapter();

  it('platform allow-all wins first, then global allow-all, then pairing, then the allowlists', async () => {
    const pairing = new PairingStore(home());
    const issued = await pairing.issue('loopback', 'paired-user');
    if (issued.kind !== 'code') throw new Error('no code');
    await pairing.approve('loopback', issued.code);
    const [entry] = resolvePlatformSettings({
      loopback: { allowed_users: ['paired-user', 'listed'], allow_all_users: false },
    });
    const settings = resolveGatewaySettings({ allowed_users: ['listed', 'global'] });
    const deps = { settings, platform: entry, pairing };
    // Paired and on the platform list: pairing is checked first.
    expect(await authorize(message('paired-user'), adapter, deps)).toEqual({
      allowed: true,
      by: 'paired',
    });
    // On both lists: the platform's own list is checked before the global one.
    expect(await authorize(message('listed'), adapter, deps)).toEqual({
      allowed: true,
      by: 'platform-allowlist',
    });
    expect(await authorize(message('global'), adapter, deps)).toEqual({
      allowed: true,
      by: 'global-allowlist',
    });
    expect(await authorize(message('stranger'), adapter, deps)).toEqual({ allowed: false });

    const [open] = resolvePlatformSettings({ loopback: { allow_all_users: true } });
    expect(await authorize(message('paired-user'), adapter, { ...deps, platform: open })).toEqual({
      allowed: true,
      by: 'platform-allow-all',
    });
    const everyone = resolveGatewaySettings({ allow_all_users: true });
    expect(await authorize(message('stranger'), adapter, { ...deps, settings: everyone })).toEqual({
      allowed: true,
      by: 'global-allow-all',
    });
  });

  it('an adapter with its own access policy skips the step, whatever its platform is called', async () => {
    const own = new LoopbackAdapter({ hasOwnAccessPolicy: true });
    const deps = {
      settings: resolveGatewaySettings({}),
      platform: undefined,
      pairing: new PairingStore(home()),
    };
    expect(await authorize(message('stranger'), own, deps)).toEqual({
      allowed: true,
      by: 'own-access-policy',
    });
    expect(await authorize(message('stranger'), adapter, deps)).toEqual({ allowed: false });
  });
});

describe('authorization and pairing through the gateway', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a stranger in a DM gets a pairing code and no turn; once the owner approves, the agent answers', async () => {
    h = await startHarness(script().text('Hello, new friend.'), { gateway: {} });
    await h.say('hello?', { userId: 'stranger', chatId: 'dm-s' });
    await h.gateway.settled();
    const [notice] = h.texts('dm-s');
    expect(notice).toMatch(/pairing code is [A-Z2-9]{8}/);
    expect(notice).toContain('hermes pairing approve loopback');
    expect(h.server.requests).toHaveLength(0);
    expect(h.builds).toHaveLength(0);

    // Asking again at once is rate-limited: no second code, no reply flood.
    await h.say('hello??', { userId: 'stranger', chatId: 'dm-s' });
    expect(h.texts('dm-s')).toHaveLength(1);

    const code = /pairing code is ([A-Z2-9]{8})/.exec(notice ?? '')?.[1] ?? '';
    // The CLI runs in another process: a separate PairingStore on the same HERMES_HOME.
    expect(await new PairingStore(h.home).approve('loopback', code)).toBeDefined();
    await h.say('hello again', { userId: 'stranger', chatId: 'dm-s' });
    await h.gateway.settled();
    expect(h.texts('dm-s')).toContain('Hello, new friend.');
  });

  it('a stranger in a group is ignored silently', async () => {
    h = await startHarness(script().text('never'), { gateway: {} });
    await h.say('hey bot', { userId: 'stranger', chatId: 'group-1', isDirect: false });
    await h.gateway.settled();
    expect(h.adapter.sent).toHaveLength(0);
    expect(h.server.requests).toHaveLength(0);
  });

  it('with pairing off, a stranger in a DM hears nothing', async () => {
    h = await startHarness(script().text('never'), { gateway: { pairing: { enabled: false } } });
    await h.say('hello?', { userId: 'stranger', chatId: 'dm-s' });
    await h.gateway.settled();
    expect(h.adapter.sent).toHaveLength(0);
  });

  it('the platform allowlist lets its users in; the sink of a refused message gets a failure', async () => {
    h = await startHarness(script().text('Hi listed user.'), {
      gateway: {},
      platforms: { loopback: { enabled: true, allowed_users: ['listed'] } },
    });
    await h.say('hi', { userId: 'listed', chatId: 'dm-l' });
    await h.gateway.settled();
    expect(h.texts('dm-l')).toEqual(['Hi listed user.']);

    const sink = new RecordingSink();
    await h.ask('hi', { sink }, { userId: 'stranger' });
    await sink.settled;
    expect(sink.failure?.code).toBe('gateway.unauthorized');
  });
});
