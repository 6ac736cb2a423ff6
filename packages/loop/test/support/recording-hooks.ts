/**
 * An AgentHooks implementation for tests: records every call with its payload, in order, and
 * answers with whatever the test scripted for that hook (a value, or a function of the payload).
 */
import type { AgentHooks } from '../../src/index.js';

/** One recorded hook call. */
export interface HookCall {
  readonly hook: keyof AgentHooks;
  readonly payload: unknown;
}

type Answer = unknown | ((payload: never) => unknown);

/** Records hook calls; `answers[hook]` scripts what a hook resolves to (default: nothing). */
export class RecordingHooks implements AgentHooks {
  readonly calls: HookCall[] = [];
  constructor(readonly answers: Partial<Record<keyof AgentHooks, Answer>> = {}) {}

  /** The payloads of one hook, in call order. */
  payloads(hook: keyof AgentHooks): unknown[] {
    return this.calls.filter((c) => c.hook === hook).map((c) => c.payload);
  }

  /** The hook names in call order. */
  order(): (keyof AgentHooks)[] {
    return this.calls.map((c) => c.hook);
  }

  #answer(hook: keyof AgentHooks, payload: unknown): unknown {
    this.calls.push({ hook, payload: structuredClone(payload) });
    const answer = this.answers[hook];
    return typeof answer === 'function' ? (answer as (p: unknown) => unknown)(payload) : answer;
  }

  async preToolCall(p: Parameters<NonNullable<AgentHooks['preToolCall']>>[0]) {
    return this.#answer('preToolCall', p) as Awaited<
      ReturnType<NonNullable<AgentHooks['preToolCall']>>
    >;
  }
  async postToolCall(p: Parameters<NonNullable<AgentHooks['postToolCall']>>[0]) {
    return this.#answer('postToolCall', p) as string | undefined;
  }
  async preLlmCall(p: Parameters<NonNullable<AgentHooks['preLlmCall']>>[0]) {
    return this.#answer('preLlmCall', p) as string | undefined;
  }
  async postLlmCall(p: Parameters<NonNullable<AgentHooks['postLlmCall']>>[0]) {
    this.#answer('postLlmCall', p);
  }
  async sessionStart(p: Parameters<NonNullable<AgentHooks['sessionStart']>>[0]) {
    this.#answer('sessionStart', p);
  }
  async sessionEnd(p: Parameters<NonNullable<AgentHooks['sessionEnd']>>[0]) {
    this.#answer('sessionEnd', p);
  }
  async subagentStart(p: Parameters<NonNullable<AgentHooks['subagentStart']>>[0]) {
    this.#answer('subagentStart', p);
  }
  async subagentStop(p: Parameters<NonNullable<AgentHooks['subagentStop']>>[0]) {
    this.#answer('subagentStop', p);
  }
  preApproval(p: Parameters<NonNullable<AgentHooks['preApproval']>>[0]) {
    this.#answer('preApproval', p);
  }
  postApproval(p: Parameters<NonNullable<AgentHooks['postApproval']>>[0]) {
    this.#answer('postApproval', p);
  }
}

/** Hooks where every member throws (sync) or rejects: containment tests. */
export function throwingHooks(): AgentHooks {
  const boom = () => {
    throw new Error('hook exploded');
  };
  const reject = () => Promise.reject(new Error('hook rejected'));
  return {
    preToolCall: boom,
    postToolCall: reject,
    preLlmCall: boom,
    postLlmCall: reject,
    sessionStart: boom,
    sessionEnd: reject,
    subagentStart: boom,
    subagentStop: reject,
    preApproval: boom,
    postApproval: boom,
  };
}

/** Hooks that resolve to results of the wrong shape. */
export function garbageHooks(): AgentHooks {
  const garbage = (value: unknown) => () => Promise.resolve(value as never);
  return {
    preToolCall: garbage({ block: 42, args: 'not an object' }),
    postToolCall: garbage({ result: 'an object, not a string' }),
    preLlmCall: garbage(['not', 'a', 'string']),
    postLlmCall: garbage('ignored'),
    sessionStart: garbage(7),
  };
}
