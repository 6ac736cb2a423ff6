/**
 * The command corpus: every JSON file in test/corpus holds `{command, decision, stage,
 * patternKey?, context?}` cases covering each rule with true positives, false-positive traps and
 * bypass variants. One test asserts every case, reporting all mismatches at once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type CheckContext,
  inspectCommand,
  VerdictDecisionSchema,
  VerdictStageSchema,
} from '../src/index.ts';

const CaseSchema = z.strictObject({
  command: z.string(),
  decision: VerdictDecisionSchema,
  stage: VerdictStageSchema,
  patternKey: z.string().optional(),
  context: z
    .strictObject({
      mode: z.enum(['smart', 'manual', 'off']).optional(),
      yolo: z.boolean().optional(),
      deny: z.array(z.string()).optional(),
      commandAllowlist: z.array(z.string()).optional(),
      sessionApprovals: z.array(z.string()).optional(),
      sudoPasswordConfigured: z.boolean().optional(),
    })
    .optional(),
});
type Case = z.infer<typeof CaseSchema>;

const dir = fileURLToPath(new URL('./corpus', import.meta.url));
const files = readdirSync(dir).filter((name) => name.endsWith('.json'));
const cases: Array<Case & { file: string }> = files.flatMap((file) =>
  z
    .array(CaseSchema)
    .parse(JSON.parse(readFileSync(join(dir, file), 'utf8')))
    .map((c) => ({ ...c, file })),
);

function contextOf(c: Case): CheckContext {
  const { sessionApprovals, ...rest } = c.context ?? {};
  // zod marks absent keys `undefined`; the context type wants them left out.
  const defined = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  return {
    ...(defined as Omit<CheckContext, 'sessionApprovals'>),
    ...(sessionApprovals ? { sessionApprovals: new Set(sessionApprovals) } : {}),
    home: '/home/tester',
    hermesHome: '/home/tester/.hermes',
    saveBlockedScripts: false,
  };
}

describe('command corpus', () => {
  it('has at least 400 cases covering every decision', () => {
    expect(cases.length).toBeGreaterThanOrEqual(400);
    for (const decision of ['allow', 'ask', 'block'] as const) {
      expect(cases.some((c) => c.decision === decision)).toBe(true);
    }
  });

  it('decides every case as recorded', () => {
    const mismatches: string[] = [];
    for (const c of cases) {
      const { verdict } = inspectCommand(c.command, contextOf(c));
      const keyWrong = c.patternKey !== undefined && verdict.patternKey !== c.patternKey;
      if (verdict.decision !== c.decision || verdict.stage !== c.stage || keyWrong) {
        mismatches.push(
          `${c.file}: ${JSON.stringify(c.command)} expected ${c.decision}/${c.stage}/${c.patternKey ?? '-'}` +
            ` got ${verdict.decision}/${verdict.stage}/${verdict.patternKey ?? '-'}`,
        );
      }
    }
    expect(mismatches).toEqual([]);
  });
});
