/**
 * @packageDocumentation
 * The contract every {@link ApprovalHandler} must honour, as a vitest suite
 * ({@link describeApprovalHandlerContract}) and as plain assertion functions (`check…`) that
 * throw a `ContractViolation` (from `@hermes/protocol/testing`) on a violation. The suite grows
 * as later issues add behaviour.
 *
 * Only types are imported from this package's main entry, so the testing build never carries a
 * second copy of the seam's classes.
 */
import { type ApprovalDecision, ApprovalDecisionSchema } from '@hermes/protocol';
import { contractViolation, within } from '@hermes/protocol/testing';
import { afterEach, describe, it } from 'vitest';
import type { ApprovalContext, ApprovalHandler } from './index.js';

/**
 * How the suite plays the person being asked. The factory must wire its handler so that, when
 * asked, the person answers `answer` (for a CLI handler: a fake terminal that types it; for the
 * gateway: a fake chat that replies with it). `null` means the person never answers.
 */
export interface ScriptedHuman {
  readonly answer: ApprovalDecision | null;
}

/** A handler under test plus what to do after the test. */
export interface ApprovalHandlerFixture {
  readonly handler: ApprovalHandler;
  /** Runs after each test, even a failed one. */
  readonly cleanup?: () => void | Promise<void>;
}

/** Makes a fresh handler for one test, wired to the scripted person. */
export type ApprovalHandlerFactory = (
  human: ScriptedHuman,
) => ApprovalHandler | ApprovalHandlerFixture | Promise<ApprovalHandler | ApprovalHandlerFixture>;

/** Tuning for {@link describeApprovalHandlerContract}. */
export interface ApprovalHandlerContractOptions {
  /**
   * Whether the handler can be scripted to return the person's answer. Set `false` for a handler
   * that never asks anyone (a policy handler); the scripted-answer tests are then skipped.
   * Default `true`.
   */
  readonly scriptable?: boolean;
  /** How soon after an abort the handler must resolve `deny`, in ms. Default 250. */
  readonly abortDeadlineMs?: number;
  /** How late past `timeoutMs` the handler may resolve `deny`, in ms. Default 500. */
  readonly timeoutSlackMs?: number;
}

const SAMPLE_COMMAND = 'rm -rf ./build \\\n  && echo "done"';
const SAMPLE_REASON = 'recursive delete';

/** A minimal, valid context for contract requests. */
export function contractApprovalContext(overrides: Partial<ApprovalContext> = {}): ApprovalContext {
  return { sessionId: 'contract-session', platform: 'contract', ...overrides };
}

function assertDecision(value: unknown, what: string): asserts value is ApprovalDecision {
  if (!ApprovalDecisionSchema.safeParse(value).success) {
    contractViolation(
      `${what} resolved ${JSON.stringify(value)}, which is not once, session, always or deny`,
    );
  }
}

/** Checks that `handler.request` resolves to one of the four decisions within `deadlineMs`. */
export async function checkResolvesToDecision(
  handler: ApprovalHandler,
  deadlineMs = 5_000,
): Promise<ApprovalDecision> {
  const ctx = contractApprovalContext({ timeoutMs: Math.max(1, deadlineMs - 500) });
  const answer = await within(
    handler.request(SAMPLE_COMMAND, SAMPLE_REASON, ctx),
    deadlineMs,
    'request()',
  );
  assertDecision(answer, 'request()');
  return answer;
}

/** Checks that `handler.request` returns exactly what the scripted person answered. */
export async function checkReturnsScriptedAnswer(
  handler: ApprovalHandler,
  expected: ApprovalDecision,
  deadlineMs = 5_000,
): Promise<void> {
  const answer = await within(
    handler.request(SAMPLE_COMMAND, SAMPLE_REASON, contractApprovalContext()),
    deadlineMs,
    'request()',
  );
  assertDecision(answer, 'request()');
  if (answer !== expected) {
    contractViolation(`the person answered "${expected}" but request() resolved "${answer}"`);
  }
}

/** Checks that an already-aborted signal yields `deny` within `deadlineMs`. */
export async function checkDeniesWhenAlreadyAborted(
  handler: ApprovalHandler,
  deadlineMs = 250,
): Promise<void> {
  const controller = new AbortController();
  controller.abort();
  const ctx = contractApprovalContext({ signal: controller.signal });
  const answer = await within(
    handler.request(SAMPLE_COMMAND, SAMPLE_REASON, ctx),
    deadlineMs,
    'request() with an already-aborted signal',
  );
  if (answer !== 'deny') {
    contractViolation(`request() with an already-aborted signal resolved "${answer}"`);
  }
}

/** Checks that aborting the signal while waiting for the person yields `deny` within `deadlineMs`. */
export async function checkDeniesWhenAbortedWhileWaiting(
  handler: ApprovalHandler,
  deadlineMs = 250,
): Promise<void> {
  const controller = new AbortController();
  const ctx = contractApprovalContext({ signal: controller.signal });
  const pending = handler.request(SAMPLE_COMMAND, SAMPLE_REASON, ctx);
  // The handler is waiting once request() has returned and the work it queued has run: abort
  // after one turn of the event loop, not after a guessed number of milliseconds.
  await new Promise((resolve) => setImmediate(resolve));
  controller.abort();
  const answer = await within(pending, deadlineMs, 'request() after its signal aborted');
  if (answer !== 'deny') contractViolation(`request() whose signal aborted resolved "${answer}"`);
}

/** Checks that `timeoutMs` elapsing without an answer yields `deny` within `timeoutMs + slackMs`. */
export async function checkDeniesOnTimeout(
  handler: ApprovalHandler,
  timeoutMs = 150,
  slackMs = 500,
): Promise<void> {
  const ctx = contractApprovalContext({ timeoutMs });
  const answer = await within(
    handler.request(SAMPLE_COMMAND, SAMPLE_REASON, ctx),
    timeoutMs + slackMs,
    `request() with timeoutMs ${timeoutMs}`,
  );
  if (answer !== 'deny') contractViolation(`request() that timed out resolved "${answer}"`);
}

function isHandler(value: ApprovalHandler | ApprovalHandlerFixture): value is ApprovalHandler {
  return typeof (value as Partial<ApprovalHandler>).request === 'function';
}

/**
 * Registers the {@link ApprovalHandler} contract as a vitest `describe` block. `factory` makes a
 * fresh handler for every test, wired to a scripted person (see {@link ScriptedHuman}).
 *
 * @example
 * describeApprovalHandlerContract('cli prompt', ({ answer }) => new CliApprovalHandler(fakeTty(answer)));
 */
export function describeApprovalHandlerContract(
  label: string,
  factory: ApprovalHandlerFactory,
  options: ApprovalHandlerContractOptions = {},
): void {
  const scriptable = options.scriptable ?? true;
  const abortDeadlineMs = options.abortDeadlineMs ?? 250;
  const timeoutSlackMs = options.timeoutSlackMs ?? 500;

  describe(`ApprovalHandler contract: ${label}`, () => {
    const cleanups: Array<() => void | Promise<void>> = [];

    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    async function make(human: ScriptedHuman): Promise<ApprovalHandler> {
      const made = await factory(human);
      if (isHandler(made)) return made;
      if (made.cleanup) cleanups.push(made.cleanup);
      return made.handler;
    }

    it('resolves to one of the four decisions', async () => {
      await checkResolvesToDecision(await make({ answer: 'once' }));
    });

    for (const answer of ApprovalDecisionSchema.options) {
      // A policy handler never asks anyone, so these checks cannot apply; the skip says why.
      const reason = scriptable
        ? ''
        : ' [skipped: handler is not scriptable, it never asks a person]';
      it.skipIf(!scriptable)(`returns the person's answer "${answer}"${reason}`, async () => {
        await checkReturnsScriptedAnswer(await make({ answer }), answer);
      });
    }

    it('denies promptly when the signal is already aborted, whatever the person would say', async () => {
      await checkDeniesWhenAlreadyAborted(await make({ answer: 'always' }), abortDeadlineMs);
    });

    it('denies promptly when the signal aborts while waiting', async () => {
      await checkDeniesWhenAbortedWhileWaiting(await make({ answer: null }), abortDeadlineMs);
    });

    it('denies when timeoutMs elapses without an answer', async () => {
      await checkDeniesOnTimeout(await make({ answer: null }), 150, timeoutSlackMs);
    });
  });
}

/** Every assertion of the contract, by name, for callers that run them outside vitest. */
export const approvalHandlerChecks = {
  checkResolvesToDecision,
  checkReturnsScriptedAnswer,
  checkDeniesWhenAlreadyAborted,
  checkDeniesWhenAbortedWhileWaiting,
  checkDeniesOnTimeout,
} as const;
