import { ValidationError } from '@hermes/protocol';
import { describe, expect, it, vi } from 'vitest';
import { definePlugin, isHermesPlugin, type PluginContext, type PluginTool } from '../src/index.js';

/** A stand-in for the host: records what plugins register. */
function fakeHost() {
  const tools: PluginTool[] = [];
  const hooks: string[] = [];
  const logs: string[] = [];
  const ctx: PluginContext = {
    name: 'hermes-plugin-hello',
    storage: {
      dir: '/tmp/plugin-data/hello',
      path: (relative) => `/tmp/plugin-data/hello/${relative}`,
    },
    config: {},
    registerTool: (tool) => tools.push(tool),
    registerHook: (name) => hooks.push(name),
    registerPlatform: vi.fn(),
    registerMemoryProvider: vi.fn(),
    registerContextEngine: vi.fn(),
    registerCommand: vi.fn(),
    logger: {
      debug: (message) => logs.push(message),
      info: (message) => logs.push(message),
      warn: (message) => logs.push(message),
      error: (message) => logs.push(message),
    },
  };
  return { ctx, tools, hooks, logs };
}

const hello: PluginTool = {
  schema: {
    type: 'function',
    function: {
      name: 'hello',
      description: 'Greets someone.',
      parameters: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
    },
  },
  handler: (args) => `hello, ${String(args.who)}`,
};

describe('definePlugin', () => {
  it('calls nothing until the host calls register, then calls it once with the context', async () => {
    const register = vi.fn((ctx: PluginContext) => {
      ctx.registerTool(hello);
      ctx.registerHook('postToolCall', () => undefined);
      ctx.logger.info('ready');
    });
    const plugin = definePlugin({ manifest: { name: 'hello', version: '0.1.0' }, register });
    expect(register).not.toHaveBeenCalled();

    const host = fakeHost();
    await plugin.register(host.ctx);
    expect(register).toHaveBeenCalledTimes(1);
    expect(register).toHaveBeenCalledWith(host.ctx);
    expect(host.tools.map((tool) => tool.schema.function.name)).toEqual(['hello']);
    expect(host.hooks).toEqual(['postToolCall']);
    expect(host.logs).toEqual(['ready']);
    const signal = new AbortController().signal;
    expect(await host.tools[0]?.handler({ who: 'Ada' }, { sessionId: 's', signal })).toBe(
      'hello, Ada',
    );
  });

  it('awaits an async register and passes its failure to the host', async () => {
    const order: string[] = [];
    const slow = definePlugin({
      manifest: { name: 'slow', version: '1.0.0' },
      async register() {
        await new Promise((resolve) => setTimeout(resolve, 10));
        order.push('registered');
      },
    });
    await slow.register(fakeHost().ctx);
    order.push('after');
    expect(order).toEqual(['registered', 'after']);

    const broken = definePlugin({
      manifest: { name: 'broken', version: '1.0.0' },
      register() {
        throw new Error('missing API key');
      },
    });
    await expect(broken.register(fakeHost().ctx)).rejects.toThrow('missing API key');
  });

  it('returns a frozen plugin with a frozen, defaulted manifest', () => {
    const plugin = definePlugin({
      manifest: { name: 'frozen', version: '1.0.0', hermes: { minVersion: '0.1.0' } },
      register: () => {},
    });
    expect(Object.isFrozen(plugin)).toBe(true);
    expect(Object.isFrozen(plugin.manifest)).toBe(true);
    expect(Object.isFrozen(plugin.manifest.hermes)).toBe(true);
    expect(plugin.manifest.kind).toBe('general');
    expect(isHermesPlugin(plugin)).toBe(true);
    expect(isHermesPlugin({ manifest: plugin.manifest, register: plugin.register })).toBe(false);
    expect(isHermesPlugin(null)).toBe(false);
  });

  it('rejects a register that is not a function, naming it', () => {
    const bad = { manifest: { name: 'no-register', version: '1.0.0' }, register: 'yes' } as never;
    expect(() => definePlugin(bad)).toThrow(ValidationError);
    expect(() => definePlugin(bad)).toThrow(/plugin definition of "no-register":\n {2}- register:/);
  });
});
