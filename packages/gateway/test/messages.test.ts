import { parseOrThrow } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import {
  AttachmentSchema,
  type InboundMessage,
  InboundMessageSchema,
  PlatformCapabilitiesSchema,
  PlatformNameSchema,
} from '../src/index.js';

const inbound: InboundMessage = {
  platform: 'telegram',
  chatId: '-100123',
  threadId: '42',
  userId: '777',
  userName: 'Ada',
  text: 'hi',
  attachments: [{ kind: 'image', path: '/tmp/cache/photo.jpg', mimeType: 'image/jpeg' }],
  messageId: '9001',
  receivedAt: 1_767_225_600_000,
  isDirect: false,
};

describe('gateway message schemas', () => {
  it('accept a full inbound message', () => {
    expect(InboundMessageSchema.parse(inbound)).toEqual(inbound);
  });

  it('name the offending field of a bad inbound message', () => {
    expect(() =>
      parseOrThrow(InboundMessageSchema, { ...inbound, chatId: '' }, 'inbound message'),
    ).toThrow(/chatId: chatId must not be empty/);
    expect(() =>
      parseOrThrow(InboundMessageSchema, { ...inbound, platform: 'Telegram' }, 'inbound message'),
    ).toThrow(/platform: platform must be lower-case/);
  });

  it('require an attachment to say where it is', () => {
    expect(AttachmentSchema.safeParse({ kind: 'file' }).success).toBe(false);
    expect(AttachmentSchema.safeParse({ kind: 'file', url: 'https://x.test/a' }).success).toBe(
      true,
    );
  });

  it('accept platform names like api-server and reject spaces', () => {
    expect(PlatformNameSchema.safeParse('api-server').success).toBe(true);
    expect(PlatformNameSchema.safeParse('home_assistant').success).toBe(true);
    expect(PlatformNameSchema.safeParse('my platform').success).toBe(false);
  });

  it('require a positive integer message limit', () => {
    const caps = {
      maxMessageLength: 4096,
      canEdit: true,
      supportsDrafts: true,
      hasOwnAccessPolicy: false,
      supportsThreads: true,
      supportsMarkdown: true,
    };
    expect(PlatformCapabilitiesSchema.parse(caps)).toEqual(caps);
    expect(PlatformCapabilitiesSchema.safeParse({ ...caps, maxMessageLength: 0 }).success).toBe(
      false,
    );
    expect(
      PlatformCapabilitiesSchema.safeParse({ ...caps, maxMessageLength: Infinity }).success,
    ).toBe(false);
  });
});
