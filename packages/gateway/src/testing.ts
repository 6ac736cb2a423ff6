/**
 * @packageDocumentation
 * The contract every {@link PlatformAdapter} must honour, as a vitest suite
 * ({@link describePlatformAdapterContract}) and as plain assertion functions (`check…`) that
 * throw a `ContractViolation` (from `@hermes/protocol/testing`) on a violation. The suite grows
 * with the gateway issue (threads, attachments, edits of streamed replies, reconnects).
 *
 * Only types and schemas are imported from this package's other modules, so the testing build
 * never carries a second copy of the seam's classes.
 */
import { isDeepStrictEqual } from 'node:util';
import { contractViolation, waitFor, within } from '@hermes/protocol/testing';
import { afterEach, describe, it } from 'vitest';
import { PlatformCapabilitiesSchema } from './capabilities.js';
import {
  type InboundMessage,
  InboundMessageSchema,
  PLATFORM_NAME_PATTERN,
  SentMessageSchema,
} from './messages.js';
import type { PlatformAdapter } from './platform-adapter.js';

/**
 * A message for the test double to inject as if a person had sent it on the platform. The
 * adapter is expected to report it with these fields, adding `platform`, `messageId` and
 * `receivedAt` itself.
 */
export interface SimulatedInbound {
  readonly chatId: string;
  readonly userId: string;
  readonly text: string;
  readonly isDirect: boolean;
  readonly threadId?: string;
  readonly userName?: string;
}

/**
 * An adapter under test, plus the hook only its test double knows how to work: making the
 * platform deliver a message (a fake HTTP server pushing an update, a loopback queue, …).
 */
export interface PlatformAdapterFixture {
  readonly adapter: PlatformAdapter;
  /**
   * Makes the platform deliver `message` to the adapter. May resolve before the adapter has
   * handed it on: the suite waits for the handler.
   */
  readonly simulateInbound: (message: SimulatedInbound) => Promise<void>;
  /** Runs after each test, even a failed one, after `adapter.disconnect()`. */
  readonly cleanup?: () => void | Promise<void>;
}

/** Makes a fresh, unconnected adapter for one test. */
export type PlatformAdapterFactory = () => PlatformAdapterFixture | Promise<PlatformAdapterFixture>;

/** The default of {@link PlatformAdapterContractOptions.deliveryTimeoutMs}. */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;

/** Tuning for {@link describePlatformAdapterContract}. */
export interface PlatformAdapterContractOptions {
  /**
   * How long an injected message may take to reach the handler, in ms. Default 10,000: a backstop
   * for a loaded machine, not a speed target (a message that never arrives still fails).
   */
  readonly deliveryTimeoutMs?: number;
  /** The chat the suite sends to and injects into. Default `contract-chat`. */
  readonly chatId?: string;
}

/** Fails with `failure` unless `condition` holds within `ms`. */
async function waitUntil(condition: () => boolean, ms: number, failure: string): Promise<void> {
  if (!(await waitFor(condition, ms))) contractViolation(failure);
}

function issues(error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }) {
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}

/** Checks the platform name and that `capabilities()` (overall and per chat) are well-formed. */
export function checkCapabilities(adapter: PlatformAdapter, chatId = 'contract-chat'): void {
  if (typeof adapter.platform !== 'string' || !PLATFORM_NAME_PATTERN.test(adapter.platform)) {
    contractViolation(`platform ${JSON.stringify(adapter.platform)} is not a lower-case name`);
  }
  for (const [what, value] of [
    ['capabilities()', adapter.capabilities()],
    [`capabilities(${JSON.stringify(chatId)})`, adapter.capabilities(chatId)],
  ] as const) {
    const parsed = PlatformCapabilitiesSchema.safeParse(value);
    if (!parsed.success) contractViolation(`${what} is malformed (${issues(parsed.error)})`);
  }
}

/** Connects `fixture.adapter` with a handler that records what arrives (and may throw). */
async function connectRecording(
  fixture: PlatformAdapterFixture,
  onEach?: (message: InboundMessage, index: number) => void,
): Promise<unknown[]> {
  const received: unknown[] = [];
  await fixture.adapter.connect((message) => {
    received.push(message);
    onEach?.(message, received.length - 1);
  });
  return received;
}

function sample(chatId: string, text: string): SimulatedInbound {
  return { chatId, userId: 'contract-user', userName: 'Contract Tester', text, isDirect: true };
}

function assertDelivered(adapter: PlatformAdapter, value: unknown, sent: SimulatedInbound): void {
  const parsed = InboundMessageSchema.safeParse(value);
  if (!parsed.success) {
    contractViolation(`the handler got a malformed message (${issues(parsed.error)})`);
  }
  const message = parsed.data;
  if (message.platform !== adapter.platform) {
    contractViolation('inbound platform differs from the adapter');
  }
  for (const field of ['chatId', 'userId', 'text', 'isDirect'] as const) {
    if (message[field] !== sent[field]) {
      contractViolation(`inbound ${field} differs from the one sent`);
    }
  }
}

/** Checks that a message injected after `connect` reaches the handler, normalized. */
export async function checkDeliversInbound(
  fixture: PlatformAdapterFixture,
  deliveryTimeoutMs = DEFAULT_DELIVERY_TIMEOUT_MS,
  chatId = 'contract-chat',
): Promise<void> {
  const received = await connectRecording(fixture);
  const sent = sample(chatId, `hello from the contract ${Date.now()}`);
  await fixture.simulateInbound(sent);
  await waitUntil(
    () => received.length > 0,
    deliveryTimeoutMs,
    `an injected message did not reach the handler within ${deliveryTimeoutMs} ms`,
  );
  if (received.length !== 1) {
    contractViolation(`one injected message reached the handler ${received.length} times`);
  }
  assertDelivered(fixture.adapter, received[0], sent);
}

/** Checks that a handler which throws does not stop the next message from arriving. */
export async function checkSurvivesHandlerError(
  fixture: PlatformAdapterFixture,
  deliveryTimeoutMs = DEFAULT_DELIVERY_TIMEOUT_MS,
  chatId = 'contract-chat',
): Promise<void> {
  const received = await connectRecording(fixture, (_message, index) => {
    if (index === 0) throw new Error('handler failure injected by the contract suite');
  });
  const first = sample(chatId, 'first, whose handler throws');
  const second = sample(chatId, 'second, after the failure');
  await fixture.simulateInbound(first);
  await waitUntil(() => received.length >= 1, deliveryTimeoutMs, 'the first message never arrived');
  await fixture.simulateInbound(second);
  await waitUntil(
    () => received.length >= 2,
    deliveryTimeoutMs,
    'after the handler threw once, the next message never arrived',
  );
  assertDelivered(fixture.adapter, received[1], second);
}

/** Checks that nothing reaches the handler after `disconnect()`. */
export async function checkNoDeliveryAfterDisconnect(
  fixture: PlatformAdapterFixture,
  quietMs = 200,
  chatId = 'contract-chat',
): Promise<void> {
  const received = await connectRecording(fixture);
  await fixture.adapter.disconnect();
  try {
    await fixture.simulateInbound(sample(chatId, 'sent after disconnect'));
  } catch {
    // A double may refuse to inject into a closed connection; that is fine.
  }
  await new Promise((resolve) => setTimeout(resolve, quietMs));
  if (received.length !== 0) contractViolation('the handler was called after disconnect()');
}

/** Checks that `send` resolves a message id. */
export async function checkSendReturnsId(
  adapter: PlatformAdapter,
  chatId = 'contract-chat',
): Promise<void> {
  const sent: unknown = await within(
    adapter.send({ chatId }, { text: 'hello from the contract suite' }),
    10_000,
    'send()',
  );
  const parsed = SentMessageSchema.safeParse(sent);
  if (!parsed.success)
    contractViolation(`send() resolved ${JSON.stringify(sent)}, not { messageId }`);
}

/** A long text with paragraphs, lines, an unbroken run and surrogate pairs, sized to `max`. */
export function longContractText(maxMessageLength: number): string {
  const target = Math.min(maxMessageLength * 3 + 17, 300_000);
  const runLength = Math.min(maxMessageLength + 7, 20_000);
  const parts: string[] = [];
  let length = 0;
  for (let n = 1; length < target; n += 1) {
    const part =
      n % 7 === 0
        ? 'x'.repeat(runLength)
        : n % 3 === 0
          ? `- item ${n} 🙂 with an emoji\n- item ${n}b`
          : `Paragraph ${n}: the quick brown fox jumps over the lazy dog, again and again.`;
    parts.push(part);
    length += part.length + 2;
  }
  return parts.join('\n\n');
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Checks that `splitMessage` keeps every chunk within `maxMessageLength` (by `messageLength`),
 * loses nothing but whitespace, never splits a surrogate pair, and that the first chunks send.
 */
export async function checkSplitsLongText(
  adapter: PlatformAdapter,
  chatId = 'contract-chat',
): Promise<void> {
  const { maxMessageLength } = adapter.capabilities(chatId);
  const text = longContractText(maxMessageLength);
  const chunks = adapter.splitMessage(text, chatId);
  if (!Array.isArray(chunks) || chunks.length === 0) {
    contractViolation('splitMessage() returned no chunks');
  }
  chunks.forEach((chunk, index) => {
    const length = adapter.messageLength(chunk);
    if (!(length <= maxMessageLength)) {
      contractViolation(
        `chunk ${index} measures ${length}, over maxMessageLength ${maxMessageLength}`,
      );
    }
    if (chunk.trim().length === 0) contractViolation(`chunk ${index} is blank`);
    if (maxMessageLength >= 2 && LONE_SURROGATE.test(chunk)) {
      contractViolation(`chunk ${index} splits a surrogate pair`);
    }
  });
  const squash = (value: string) => value.replace(/\s+/g, '');
  if (squash(chunks.join('')) !== squash(text))
    contractViolation('splitMessage() lost or changed text');
  for (const chunk of chunks.slice(0, 5)) {
    const sent = await adapter.send({ chatId }, { text: chunk });
    if (!SentMessageSchema.safeParse(sent).success) {
      contractViolation('sending a chunk gave no message id');
    }
  }
}

/** Checks that `edit` succeeds exactly when the capabilities say `canEdit`. */
export async function checkEditMatchesCapability(
  adapter: PlatformAdapter,
  chatId = 'contract-chat',
): Promise<void> {
  const { canEdit } = adapter.capabilities(chatId);
  const target = { chatId };
  const { messageId } = await adapter.send(target, { text: 'to be edited' });
  const edited = await adapter.edit(target, messageId, 'edited by the contract suite');
  if (edited !== canEdit) {
    contractViolation(
      canEdit
        ? 'canEdit is true but edit() returned false'
        : 'canEdit is false but edit() returned true',
    );
  }
}

/** Checks that the rendering, typing and status hooks answer without throwing. */
export async function checkPresentationHooks(
  adapter: PlatformAdapter,
  chatId = 'contract-chat',
): Promise<void> {
  const rendered: unknown = adapter.renderMarkdown('**bold** and `code`\n\n- a list');
  if (typeof rendered !== 'string') contractViolation('renderMarkdown() did not return a string');
  const length: unknown = adapter.messageLength('hello');
  if (typeof length !== 'number' || !(length >= 5)) {
    contractViolation('messageLength("hello") is below 5');
  }
  if (!isDeepStrictEqual(adapter.splitMessage('   '), [])) {
    contractViolation('splitMessage() of blank text is not empty');
  }
  const target = { chatId };
  await adapter.sendTyping(target);
  await adapter.setStatus(target, 'running the contract suite');
  await adapter.setStatus(target, null);
}

/** Checks that `disconnect()` may be called before `connect()` and twice after it. */
export async function checkDisconnectIsIdempotent(adapter: PlatformAdapter): Promise<void> {
  await within(adapter.disconnect(), 10_000, 'disconnect() before connect()');
  await adapter.connect(() => {});
  await within(adapter.disconnect(), 10_000, 'the first disconnect()');
  await within(adapter.disconnect(), 10_000, 'the second disconnect()');
}

/**
 * Registers the {@link PlatformAdapter} contract as a vitest `describe` block. `factory` makes
 * a fresh, unconnected adapter and its `simulateInbound` hook for every test; the suite calls
 * `disconnect()` afterwards.
 *
 * @example
 * describePlatformAdapterContract('telegram', async () => {
 *   const api = await startFakeTelegramApi();
 *   return { adapter: new TelegramAdapter({ baseUrl: api.url }), simulateInbound: api.push, cleanup: api.close };
 * });
 */
export function describePlatformAdapterContract(
  label: string,
  factory: PlatformAdapterFactory,
  options: PlatformAdapterContractOptions = {},
): void {
  const deliveryTimeoutMs = options.deliveryTimeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  const chatId = options.chatId ?? 'contract-chat';

  describe(`PlatformAdapter contract: ${label}`, () => {
    const cleanups: Array<() => void | Promise<void>> = [];

    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    async function make(): Promise<PlatformAdapterFixture> {
      const fixture = await factory();
      if (fixture.cleanup) cleanups.push(fixture.cleanup);
      cleanups.push(() => fixture.adapter.disconnect());
      return fixture;
    }

    async function connected(): Promise<PlatformAdapter> {
      const { adapter } = await make();
      await adapter.connect(() => {});
      return adapter;
    }

    it('names its platform and reports well-formed capabilities', async () => {
      checkCapabilities((await make()).adapter, chatId);
    });
    it('hands an injected message to the connected handler, normalized', async () => {
      await checkDeliversInbound(await make(), deliveryTimeoutMs, chatId);
    });
    it('keeps delivering after the handler throws', async () => {
      await checkSurvivesHandlerError(await make(), deliveryTimeoutMs, chatId);
    });
    it('delivers nothing after disconnect', async () => {
      await checkNoDeliveryAfterDisconnect(await make(), 200, chatId);
    });
    it('send resolves a message id', async () => {
      await checkSendReturnsId(await connected(), chatId);
    });
    it('splits long text within maxMessageLength without losing any, and sends each part', async () => {
      await checkSplitsLongText(await connected(), chatId);
    });
    it('edit succeeds exactly when canEdit says so', async () => {
      await checkEditMatchesCapability(await connected(), chatId);
    });
    it('rendering, typing and status hooks answer without throwing', async () => {
      await checkPresentationHooks(await connected(), chatId);
    });
    it('disconnect is idempotent, even before connect', async () => {
      await checkDisconnectIsIdempotent((await make()).adapter);
    });
  });
}

/** Every assertion of the contract, by name, for callers that run them outside vitest. */
export const platformAdapterChecks = {
  checkCapabilities,
  checkDeliversInbound,
  checkSurvivesHandlerError,
  checkNoDeliveryAfterDisconnect,
  checkSendReturnsId,
  checkSplitsLongText,
  checkEditMatchesCapability,
  checkPresentationHooks,
  checkDisconnectIsIdempotent,
} as const;

export * from './lane/session-lane-contract.js';
