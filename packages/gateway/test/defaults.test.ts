/**
 * An adapter that implements only the required members gets a safe default for every optional
 * one. Adding a member to the class without listing it (and testing its default) here fails.
 */
import { describe, expect, it } from 'vitest';
import {
  type OutboundMessage,
  PlatformAdapter,
  type PlatformCapabilities,
  type SentMessage,
} from '../src/index.js';

class OnlyRequired extends PlatformAdapter {
  readonly platform = 'bare';
  async connect(): Promise<void> {}
  async disconnect(): Promise<void> {}
  async send(_target: unknown, _message: OutboundMessage): Promise<SentMessage> {
    return { messageId: 'm1' };
  }
  capabilities(): PlatformCapabilities {
    return {
      maxMessageLength: 10,
      canEdit: false,
      supportsDrafts: false,
      hasOwnAccessPolicy: false,
      supportsThreads: false,
      supportsMarkdown: false,
    };
  }
}

const OPTIONAL_MEMBERS = [
  'edit',
  'sendDraft',
  'renderMarkdown',
  'messageLength',
  'splitMessage',
  'sendTyping',
  'setStatus',
  'connectionState',
];

describe('PlatformAdapter defaults', () => {
  const adapter = new OnlyRequired();
  const target = { chatId: 'c1' };

  it('lists every optional member here', () => {
    const own = Object.getOwnPropertyNames(PlatformAdapter.prototype).filter(
      (name) => name !== 'constructor',
    );
    expect(own.sort()).toEqual([...OPTIONAL_MEMBERS].sort());
  });

  it('edit and sendDraft do nothing and report false, so callers fall back to send', async () => {
    await expect(adapter.edit(target, 'm1', 'new')).resolves.toBe(false);
    await expect(adapter.sendDraft(target, 'd1', 'partial')).resolves.toBe(false);
  });

  it('renderMarkdown is the identity and messageLength counts code units', () => {
    expect(adapter.renderMarkdown('**bold** _it_')).toBe('**bold** _it_');
    expect(adapter.messageLength('a🙂')).toBe(3);
  });

  it('splitMessage splits at the capabilities limit', () => {
    expect(adapter.splitMessage('alpha beta gamma delta')).toEqual([
      'alpha beta',
      'gamma',
      'delta',
    ]);
  });

  it('sendTyping and setStatus do nothing', async () => {
    await expect(adapter.sendTyping(target)).resolves.toBeUndefined();
    await expect(adapter.setStatus(target, 'working')).resolves.toBeUndefined();
    await expect(adapter.setStatus(target, null)).resolves.toBeUndefined();
  });
});
