/** The contract's checks must catch broken adapters, not just pass good ones. */
import { describe, expect, it } from 'vitest';
import type { InboundHandler, PlatformCapabilities } from '../src/index.js';
import {
  checkCapabilities,
  checkDeliversInbound,
  checkEditMatchesCapability,
  checkNoDeliveryAfterDisconnect,
  checkSplitsLongText,
  checkSurvivesHandlerError,
  type PlatformAdapterFixture,
  type SimulatedInbound,
} from '../src/testing.js';
import { LoopbackAdapter } from './support/loopback-adapter.js';

/** Matches a `ContractViolation` (the one way a check fails) whose message matches `pattern`. */
const violation = (pattern: RegExp) =>
  expect.objectContaining({ name: 'ContractViolation', message: expect.stringMatching(pattern) });

function fixture(adapter: LoopbackAdapter): PlatformAdapterFixture {
  return { adapter, simulateInbound: adapter.simulateInbound.bind(adapter) };
}

/** Claims a limit of 0. */
class ZeroLimit extends LoopbackAdapter {
  override capabilities(): PlatformCapabilities {
    return { ...super.capabilities(), maxMessageLength: 0 };
  }
}

/** Splits at the limit but counts every character double on the wire. */
class MiscountsLength extends LoopbackAdapter {
  override messageLength(text: string): number {
    return text.length * 2;
  }
  override splitMessage(text: string): string[] {
    const size = this.capabilities().maxMessageLength;
    const parts: string[] = [];
    for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
    return parts;
  }
}

/** Drops the tail of long text. */
class Truncates extends LoopbackAdapter {
  override splitMessage(text: string): string[] {
    return [text.slice(0, this.capabilities().maxMessageLength)];
  }
}

/** Lets a handler error escape, so later messages are never delivered. */
class Fragile extends LoopbackAdapter {
  #dead = false;
  override async simulateInbound(message: SimulatedInbound): Promise<void> {
    if (this.#dead) return;
    try {
      await super.simulateInbound(message);
    } finally {
      if (this.handlerErrors.length > 0) this.#dead = true;
    }
  }
}

/** Keeps calling the handler after disconnect. */
class Leaky extends LoopbackAdapter {
  #kept: InboundHandler | undefined;
  override async connect(onMessage: InboundHandler): Promise<void> {
    this.#kept = onMessage;
    await super.connect(onMessage);
  }
  override async disconnect(): Promise<void> {
    await super.disconnect();
    const kept = this.#kept;
    if (kept) await super.connect(kept);
  }
}

/** Reports another platform's name and loses the user id. */
class Mislabels extends LoopbackAdapter {
  override async simulateInbound(message: SimulatedInbound): Promise<void> {
    await super.simulateInbound({ ...message, userId: 'someone-else' });
  }
}

/** Hands each message on 3 s late, like a real platform on a loaded machine; otherwise correct. */
class SlowButCorrect extends LoopbackAdapter {
  override async simulateInbound(message: SimulatedInbound): Promise<void> {
    setTimeout(() => void super.simulateInbound(message), 3_000);
  }
}

describe('platform adapter contract checks pass slow but correct adapters', () => {
  it('a message delivered 3 s late still arrives within the default deadline (a backstop)', async () => {
    await expect(checkDeliversInbound(fixture(new SlowButCorrect()))).resolves.toBeUndefined();
  });
});

describe('platform adapter contract checks reject broken adapters', () => {
  it('a non-positive maxMessageLength fails', () => {
    expect(() => checkCapabilities(new ZeroLimit())).toThrow(
      violation(/capabilities\(\) is malformed \(maxMessageLength/),
    );
  });

  it('chunks that are too long by the platform measure fail', async () => {
    const adapter = new MiscountsLength({ maxMessageLength: 100 });
    await adapter.connect(() => {});
    await expect(checkSplitsLongText(adapter)).rejects.toThrow(
      violation(/chunk 0 measures 200, over maxMessageLength 100/),
    );
  });

  it('losing text while splitting fails', async () => {
    const adapter = new Truncates({ maxMessageLength: 100 });
    await adapter.connect(() => {});
    await expect(checkSplitsLongText(adapter)).rejects.toThrow(violation(/lost or changed text/));
  });

  it('an adapter that dies after a handler error fails', async () => {
    await expect(checkSurvivesHandlerError(fixture(new Fragile()), 100)).rejects.toThrow(
      violation(/next message never arrived/),
    );
  });

  it('delivering after disconnect fails', async () => {
    await expect(checkNoDeliveryAfterDisconnect(fixture(new Leaky()), 20)).rejects.toThrow(
      violation(/called after disconnect/),
    );
  });

  it('a message reported with the wrong sender fails', async () => {
    await expect(checkDeliversInbound(fixture(new Mislabels()))).rejects.toThrow(
      violation(/userId differs/),
    );
  });

  it('an adapter whose edit() disagrees with canEdit fails', async () => {
    const adapter = new LoopbackAdapter({ canEdit: true });
    adapter.edit = async () => false;
    await adapter.connect(() => {});
    await expect(checkEditMatchesCapability(adapter)).rejects.toThrow(
      violation(/canEdit is true but edit\(\) returned false/),
    );
  });
});
