/**
 * An environment given as a function is created at the first tool call, once: a turn without
 * tools creates none, later tools and delegated children use the same one.
 */
import { type ExecutionEnvironment, LocalEnvironment } from '@hermes/environments';
import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, KeepLastEngine, startHarness } from './support/harness.js';
import { TestToolbox } from './support/test-toolbox.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('a lazily created environment', () => {
  it('is built at the first tool call, once, and shared with delegated children', async () => {
    const seen: ExecutionEnvironment[] = [];
    const built: LocalEnvironment[] = [];
    const toolbox = new TestToolbox({
      probe: {
        run: (_args, ctx) => {
          seen.push(ctx.environment);
          return 'probed';
        },
      },
    });
    harness = await startHarness(
      script()
        .text('no tools here')
        .next()
        .toolCall('probe', {})
        .next()
        .toolCall('probe', {})
        .next()
        .text('probed twice')
        .next()
        .toolCall('delegate_task', { tasks: [{ goal: 'probe it' }] })
        .match({ lastUserIncludes: 'delegate' })
        .next()
        .toolCall('probe', {})
        .match({ lastUserIncludes: 'probe it' })
        .next()
        .text('child done')
        .match({ lastUserIncludes: 'probe it' })
        .next()
        .text('all done')
        .match({ lastUserIncludes: 'delegate' }),
      {
        toolbox,
        environment: () => {
          const environment = new LocalEnvironment({ loginShellEnv: false });
          built.push(environment);
          return environment;
        },
        delegation: { createContextEngine: () => new KeepLastEngine() },
      },
    );
    expect((await harness.agent.runConversation('just talk')).finalResponse).toBe('no tools here');
    expect(built).toHaveLength(0);
    expect((await harness.agent.runConversation('probe')).finalResponse).toBe('probed twice');
    expect(built).toHaveLength(1);
    expect((await harness.agent.runConversation('delegate a probe')).finalResponse).toBe(
      'all done',
    );
    expect(built).toHaveLength(1);
    expect(seen).toHaveLength(3);
    for (const environment of seen) expect(environment).toBe(built[0]);
  });
});
