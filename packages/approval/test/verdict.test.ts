import { parseOrThrow } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { type Verdict, VerdictSchema } from '../src/index.js';

describe('VerdictSchema', () => {
  it('accepts each decision with its optional fields', () => {
    const ask: Verdict = {
      decision: 'ask',
      stage: 'dangerous_pattern',
      reason: 'recursive delete',
      patternKey: 'recursive_delete',
    };
    expect(VerdictSchema.parse(ask)).toEqual(ask);
    const blocked = {
      decision: 'block',
      stage: 'parser_limit',
      reason: 'command too long to check',
      recovery: 'Run the saved script instead: bash /tmp/x.sh',
    };
    expect(VerdictSchema.parse(blocked)).toEqual(blocked);
    expect(VerdictSchema.parse({ decision: 'allow', stage: 'no_match', reason: '' }).decision).toBe(
      'allow',
    );
  });

  it('never lets a hardline verdict allow or ask', () => {
    for (const decision of ['allow', 'ask']) {
      expect(() =>
        parseOrThrow(VerdictSchema, { decision, stage: 'hardline', reason: 'rm -rf /' }, 'verdict'),
      ).toThrow(/decision: a hardline verdict must be "block"/);
    }
  });

  it('rejects unknown stages and empty pattern keys, naming the field', () => {
    expect(() =>
      parseOrThrow(VerdictSchema, { decision: 'allow', stage: 'vibes', reason: '' }, 'verdict'),
    ).toThrow(/stage:/);
    expect(() =>
      parseOrThrow(
        VerdictSchema,
        { decision: 'ask', stage: 'dangerous_pattern', reason: 'r', patternKey: '' },
        'verdict',
      ),
    ).toThrow(/patternKey: patternKey must not be empty/);
  });
});
