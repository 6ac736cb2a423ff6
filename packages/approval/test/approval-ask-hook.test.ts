/** CommandApprover's `onAsk` observer and the `asked` flag on verdict events (plugin approval hooks). */
import { describe, expect, it } from 'vitest';
import {
  type ApprovalAskEvent,
  type ApprovalVerdictEvent,
  type CommandApprovalRequest,
  CommandApprover,
} from '../src/index.ts';
import { ScriptedApprovalHandler } from './support/scripted-approval-handler.ts';

const request = (surface: CommandApprovalRequest['surface']): CommandApprovalRequest => ({
  sessionId: 's1',
  platform: 'cli',
  surface,
});

function observed(answer: 'once' | 'deny', onAsk?: (event: ApprovalAskEvent) => void) {
  const asks: ApprovalAskEvent[] = [];
  const verdicts: ApprovalVerdictEvent[] = [];
  const handler = new ScriptedApprovalHandler({ answer });
  const subject = new CommandApprover(
    { mode: 'manual' },
    {
      hermesHome: process.env.HERMES_HOME as string,
      handler,
      home: '/home/tester',
      onAsk: onAsk ?? ((event) => asks.push(event)),
      onEvent: (event) => verdicts.push(event),
    },
  );
  return { subject, handler, asks, verdicts };
}

describe('CommandApprover onAsk', () => {
  it('fires exactly for ask verdicts, before the person rules, with the redacted command', async () => {
    let promptsAtAsk = -1;
    const asks: ApprovalAskEvent[] = [];
    const probe = observed('once', (event) => {
      asks.push(event);
      promptsAtAsk = probe.handler.prompts.length;
    });
    await probe.subject.approve('ls -la', request('interactive'));
    await probe.subject.approve('sudo rm -rf /', request('interactive'));
    expect(asks).toHaveLength(0); // allowed and hardline-blocked commands are never asked about
    await probe.subject.approve(
      'API_KEY=sk-abcdefghijklmnopqrstuvwx rm -rf build',
      request('interactive'),
    );
    expect(asks).toHaveLength(1);
    expect(promptsAtAsk).toBe(0); // nobody had been asked yet
    expect(probe.handler.prompts).toHaveLength(1);
    const [ask] = asks;
    expect(ask).toMatchObject({
      sessionId: 's1',
      surface: 'interactive',
      patternKeys: ['recursive_delete'],
    });
    expect(ask?.command).toContain('rm -rf build');
    expect(ask?.command).not.toContain('sk-abc');
    expect(ask?.reason).toBe('recursive delete');
    expect(probe.handler.prompts[0]?.reason).toBe(ask?.reason); // the reason the person was shown
  });

  it('fires on unattended surfaces too, where the policy rules', async () => {
    const { subject, asks, verdicts } = observed('once');
    const outcome = await subject.approve('rm -rf build', request('single_query'));
    expect(outcome.allowed).toBe(false);
    expect(asks).toHaveLength(1);
    expect(asks[0]?.surface).toBe('single_query');
    expect(verdicts.at(-1)).toMatchObject({ asked: true, verdict: { decision: 'block' } });
  });

  it('marks verdict events asked only when the guard asked', async () => {
    const { subject, verdicts } = observed('deny');
    await subject.approve('ls', request('interactive'));
    await subject.approve('rm -rf build', request('interactive'));
    await subject.approve('sudo rm -rf /', request('interactive'));
    expect(verdicts.map((v) => [v.asked, v.verdict.decision])).toEqual([
      [false, 'allow'],
      [true, 'block'],
      [false, 'block'],
    ]);
  });

  it('an onAsk observer that throws never breaks approval', async () => {
    const { subject, handler } = observed('once', () => {
      throw new Error('observer down');
    });
    const outcome = await subject.approve('rm -rf build', request('interactive'));
    expect(outcome.allowed).toBe(true);
    expect(handler.prompts).toHaveLength(1);
  });
});
