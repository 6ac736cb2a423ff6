/**
 * The interactive CLI's approval handler: shows the flagged command, highlighted, with the
 * guard's reason, and asks `[o]nce / [s]ession / [a]lways / [d]eny`. Fails closed: no answer, an
 * aborted request or an ended input is `deny` (seed 5.11: on the interactive surface the person
 * rules; unattended surfaces never reach this class).
 */
import { type ApprovalContext, ApprovalHandler } from '@hermes/approval';
import type { ApprovalDecision } from '@hermes/protocol';
import type { Asker } from './asker.js';
import type { Style } from './style.js';

const ANSWERS: Readonly<Record<string, ApprovalDecision>> = {
  o: 'once',
  once: 'once',
  y: 'once',
  yes: 'once',
  s: 'session',
  session: 'session',
  a: 'always',
  always: 'always',
  d: 'deny',
  deny: 'deny',
  n: 'deny',
  no: 'deny',
  '': 'deny',
};

/** Turns a typed answer into a decision; undefined for something unrecognised. */
export function parseApprovalAnswer(answer: string): ApprovalDecision | undefined {
  return ANSWERS[answer.trim().toLowerCase()];
}

/** Asks on the terminal through an {@link Asker}. */
export class TerminalApprovalHandler extends ApprovalHandler {
  readonly #asker: Asker;
  readonly #style: Style;

  constructor(asker: Asker, style: Style) {
    super();
    this.#asker = asker;
    this.#style = style;
  }

  async request(command: string, reason: string, ctx: ApprovalContext): Promise<ApprovalDecision> {
    const s = this.#style;
    const details = [
      `${s.yellow('⚠️  Approval needed')}: ${reason}`,
      `    ${s.highlight(command)}`,
      ...(ctx.cwd ? [s.dim(`    in ${ctx.cwd}`)] : []),
    ].join('\n');
    const question = `${s.bold('[o]nce / [s]ession / [a]lways / [d]eny')} ❯ `;
    // One retry on a typo; anything else unrecognised denies (fail closed).
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const answer = await this.#asker.ask(
        attempt === 0 ? details : s.dim('Please answer o, s, a or d.'),
        question,
        ctx.signal,
      );
      if (answer === undefined) return 'deny';
      const decision = parseApprovalAnswer(answer);
      if (decision) return decision;
    }
    return 'deny';
  }
}
