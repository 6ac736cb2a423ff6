/**
 * The HookRunner's semantics: registration order, the first block wins, argument rewrites and
 * result replacements chain, contexts join, each hook bounded by its timeout, and failures or
 * garbage results contained (logged once per hook and kind) and skipped.
 */
import type { AgentHooks } from '@hermes/loop';
import type { PluginHookName } from '@hermes/plugin-sdk';
import { describe, expect, it } from 'vitest';
import { HookRunner, type RegisteredHook } from '../src/index.js';

const tool = { toolName: 'terminal', args: { command: 'ls' }, sessionId: 's1' };
const post = { ...tool, result: 'raw', status: 'ok' as const };
const llm = { sessionId: 's1', userMessage: 'hi' };

function hook(
  name: PluginHookName,
  handler: (p: never) => unknown,
  extra: { plugin?: string; timeoutMs?: number } = {},
): RegisteredHook {
  return {
    plugin: extra.plugin ?? 'p',
    name,
    handler: handler as never,
    ...(extra.timeoutMs ? { timeoutMs: extra.timeoutMs } : {}),
  };
}

function runner(hooks: RegisteredHook[], defaultTimeoutMs = 60_000) {
  const warnings: string[] = [];
  const logger = { info() {}, error() {}, warn: (m: string) => warnings.push(m) };
  return { hooks: new HookRunner(hooks, { defaultTimeoutMs, logger }), warnings };
}

describe('HookRunner', () => {
  it("is the loop's AgentHooks (checked by the type-checker), every member defined", () => {
    const hooks: AgentHooks = new HookRunner();
    const names = [
      'preToolCall',
      'postToolCall',
      'preLlmCall',
      'postLlmCall',
      'sessionStart',
      'sessionEnd',
      'subagentStart',
      'subagentStop',
      'preApproval',
      'postApproval',
    ] as const;
    for (const name of names) expect(typeof hooks[name], name).toBe('function');
  });

  it('with no hooks: isEmpty, and every method resolves nothing', async () => {
    const { hooks } = runner([]);
    expect(hooks.isEmpty).toBe(true);
    expect(await hooks.preToolCall(tool)).toBeUndefined();
    expect(await hooks.postToolCall(post)).toBeUndefined();
    expect(await hooks.preLlmCall(llm)).toBeUndefined();
    expect(await hooks.sessionStart({ sessionId: 's', platform: 'cli' })).toBeUndefined();
    expect(
      hooks.preApproval({ sessionId: 's', command: 'x', reason: 'r', patternKeys: [] }),
    ).toBeUndefined();
  });

  it('runs hooks in registration order with the payload', async () => {
    const seen: string[] = [];
    const { hooks } = runner([
      hook('sessionStart', (p: { sessionId: string }) => void seen.push(`a:${p.sessionId}`)),
      hook('sessionStart', async (p: { platform: string }) => void seen.push(`b:${p.platform}`)),
      hook('sessionEnd', () => void seen.push('end')),
    ]);
    expect(hooks.isEmpty).toBe(false);
    await hooks.sessionStart({ sessionId: 's9', platform: 'telegram' });
    expect(seen).toEqual(['a:s9', 'b:telegram']);
  });

  it('preToolCall: rewrites chain; the first block wins and stops the rest', async () => {
    const seen: unknown[] = [];
    const { hooks } = runner([
      hook('preToolCall', (p: { args: Record<string, unknown> }) => {
        seen.push(p.args);
        return { args: { ...p.args, n: 1 } };
      }),
      hook('preToolCall', (p: { args: Record<string, unknown> }) => {
        seen.push(p.args);
        return { args: { ...p.args, n: 2 } };
      }),
    ]);
    expect(await hooks.preToolCall(tool)).toEqual({ args: { command: 'ls', n: 2 } });
    expect(seen).toEqual([{ command: 'ls' }, { command: 'ls', n: 1 }]);

    const calls: string[] = [];
    const blocking = runner([
      hook('preToolCall', () => void calls.push('first')),
      hook('preToolCall', () => {
        calls.push('rewrite');
        return { args: { command: 'pwd' } };
      }),
      hook('preToolCall', () => {
        calls.push('block');
        return { block: 'no shell today' };
      }),
      hook('preToolCall', () => {
        calls.push('never');
        return { block: 'second block' };
      }),
    ]).hooks;
    expect(await blocking.preToolCall(tool)).toEqual({ block: 'no shell today' });
    expect(calls).toEqual(['first', 'rewrite', 'block']);
  });

  it('postToolCall: replacements chain; none → undefined', async () => {
    const { hooks } = runner([
      hook('postToolCall', (p: { result: string }) => ({ result: `${p.result}+a` })),
      hook('postToolCall', () => undefined),
      hook('postToolCall', (p: { result: string; status: string }) => ({
        result: `${p.result}+b(${p.status})`,
      })),
    ]);
    expect(await hooks.postToolCall(post)).toBe('raw+a+b(ok)');
    const quiet = runner([hook('postToolCall', () => undefined)]).hooks;
    expect(await quiet.postToolCall(post)).toBeUndefined();
  });

  it('preLlmCall: non-empty contexts joined with a blank line', async () => {
    const { hooks } = runner([
      hook('preLlmCall', (p: { userMessage: string }) => ({ context: `about ${p.userMessage}` })),
      hook('preLlmCall', () => ({ context: '   ' })),
      hook('preLlmCall', () => undefined),
      hook('preLlmCall', async () => ({ context: 'second' })),
    ]);
    expect(await hooks.preLlmCall(llm)).toBe('about hi\n\nsecond');
    const empty = runner([hook('preLlmCall', () => ({ context: '' }))]).hooks;
    expect(await empty.preLlmCall(llm)).toBeUndefined();
  });

  it('a hook that never resolves is skipped after its own timeout; the next one runs', async () => {
    // The runner's default (60 s) is longer than the test's timeout: only the hook's own 50 ms
    // lets this test finish.
    const { hooks, warnings } = runner([
      hook('preLlmCall', () => new Promise(() => {}), { plugin: 'slow', timeoutMs: 50 }),
      hook('preLlmCall', () => ({ context: 'after' })),
    ]);
    expect(await hooks.preLlmCall(llm)).toBe('after');
    expect(warnings).toEqual(['[plugin slow] preLlmCall hook timed out after 50 ms; skipped']);
  });

  it('the default timeout (plugins.hook_timeout_ms) bounds hooks without their own', async () => {
    const { hooks, warnings } = runner(
      [hook('postToolCall', () => new Promise(() => {}), { plugin: 'slow' })],
      50,
    );
    expect(await hooks.postToolCall(post)).toBeUndefined();
    expect(warnings).toEqual(['[plugin slow] postToolCall hook timed out after 50 ms; skipped']);
  });

  it('throws and rejections are contained, logged once per hook and kind, and skipped', async () => {
    const { hooks, warnings } = runner([
      hook(
        'preToolCall',
        () => {
          throw new Error('sync boom');
        },
        { plugin: 'a' },
      ),
      hook('preToolCall', () => Promise.reject(new Error('async boom')), { plugin: 'b' }),
      hook('preToolCall', () => ({ block: 'still blocked' }), { plugin: 'c' }),
    ]);
    expect(await hooks.preToolCall(tool)).toEqual({ block: 'still blocked' });
    expect(await hooks.preToolCall(tool)).toEqual({ block: 'still blocked' });
    expect(warnings).toEqual([
      '[plugin a] preToolCall hook threw: sync boom; skipped',
      '[plugin b] preToolCall hook threw: async boom; skipped',
    ]);
  });

  it('garbage results are reported and skipped', async () => {
    const garbage = [
      'text',
      42,
      [],
      { block: '' },
      { block: 5 },
      { args: [] },
      { args: 'x' },
      { other: 1 },
    ];
    const pre = runner(garbage.map((g) => hook('preToolCall', () => g)));
    expect(await pre.hooks.preToolCall(tool)).toBeUndefined();
    expect(pre.warnings).toHaveLength(garbage.length);
    expect(pre.warnings[0]).toBe(
      '[plugin p] preToolCall hook returned an invalid result (expected { block: reason } or { args: object }); skipped',
    );
    const postRun = runner([
      hook('postToolCall', () => ({ result: 5 })),
      hook('postToolCall', () => 'bare text'),
      hook('postToolCall', (p: { result: string }) => ({ result: `${p.result}!` })),
    ]);
    expect(await postRun.hooks.postToolCall(post)).toBe('raw!');
    expect(postRun.warnings).toHaveLength(2);
    const llmRun = runner([
      hook('preLlmCall', () => ({ context: 5 })),
      hook('preLlmCall', () => 'ctx'),
    ]);
    expect(await llmRun.hooks.preLlmCall(llm)).toBeUndefined();
    expect(llmRun.warnings).toHaveLength(2);
  });

  it('observe-only hooks: results ignored; approval hooks run in the background', async () => {
    let seen: unknown;
    const ran = new Promise<void>((resolve) => {
      const { hooks } = runner([
        hook('postApproval', (p: unknown) => {
          seen = p;
          resolve();
          return { block: 'ignored' };
        }),
      ]);
      const payload = {
        sessionId: 's',
        command: 'rm -rf x',
        decision: 'block' as const,
        reason: 'r',
        patternKeys: ['rm'],
      };
      expect(hooks.postApproval(payload)).toBeUndefined();
    });
    await ran;
    expect(seen).toMatchObject({ command: 'rm -rf x', decision: 'block' });
    const { hooks } = runner([hook('postLlmCall', () => ({ anything: true }))]);
    const response = {
      text: 't',
      toolCalls: [],
      model: 'm',
      finishReason: 'stop',
      usage: { inputTokens: 1, outputTokens: 1 },
    };
    expect(await hooks.postLlmCall({ sessionId: 's', response })).toBeUndefined();
  });

  it('methods work detached from the runner', async () => {
    const { hooks } = runner([hook('preLlmCall', () => ({ context: 'bound' }))]);
    const { preLlmCall } = hooks;
    expect(await preLlmCall(llm)).toBe('bound');
  });
});
