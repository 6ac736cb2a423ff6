import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { coerceToolArgs, parametersJsonSchema } from '../src/index.js';

const schema = {
  type: 'object',
  properties: {
    count: { type: 'integer' },
    ratio: { type: 'number' },
    flag: { type: 'boolean' },
    version: { type: 'string' },
    maybe: { type: ['integer', 'null'] },
    strictInt: { type: 'integer' },
    opts: { type: 'object', properties: { depth: { type: 'integer' }, deep: { type: 'boolean' } } },
    list: { type: 'array', items: { type: 'number' } },
    either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
    numOrNull: { oneOf: [{ type: 'number' }, { type: 'null' }] },
    openapiNullable: { type: 'number', nullable: true },
    choice: { enum: [1, 2, 3] },
    anything: {},
  },
} as const;

const cases: ReadonlyArray<[string, unknown, unknown]> = [
  ['count', '42', 42],
  ['count', ' 7 ', 7],
  ['count', '42.0', 42],
  ['count', '42.5', '42.5'],
  ['ratio', '3.5', 3.5],
  ['ratio', '-1e3', -1000],
  ['ratio', 'inf', 'inf'],
  ['ratio', 'nan', 'nan'],
  ['ratio', 'Infinity', 'Infinity'],
  ['ratio', '-Infinity', '-Infinity'],
  ['ratio', '0x10', '0x10'],
  ['ratio', '', ''],
  ['flag', 'true', true],
  ['flag', 'FALSE', false],
  ['flag', 'yes', 'yes'],
  ['version', '1.20', '1.20'],
  ['version', '42', '42'],
  ['version', 'true', 'true'],
  ['version', 'null', 'null'],
  ['maybe', 'null', null],
  ['maybe', '5', 5],
  ['strictInt', 'null', 'null'],
  ['either', '42', '42'],
  ['numOrNull', 'null', null],
  ['numOrNull', '2.5', 2.5],
  ['openapiNullable', 'null', null],
  ['choice', '2', 2],
  ['anything', '42', '42'],
  ['unknownKey', '42', '42'],
  ['count', 42, 42],
];

describe('coerceToolArgs — the coercion table', () => {
  for (const [key, input, expected] of cases) {
    it(`${key}: ${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      expect(coerceToolArgs(schema, { [key]: input })[key]).toEqual(expected);
    });
  }

  it('parses JSON strings into objects and arrays where the schema wants them, recursively', () => {
    const out = coerceToolArgs(schema, {
      opts: '{"depth":"3","deep":"true"}',
      list: '["1","2.5"]',
    });
    expect(out).toEqual({ opts: { depth: 3, deep: true }, list: [1, 2.5] });
  });

  it('coerces inside nested objects and arrays that are already structured', () => {
    const out = coerceToolArgs(schema, { opts: { depth: '4' }, list: ['7', 8] });
    expect(out).toEqual({ opts: { depth: 4 }, list: [7, 8] });
  });

  it('leaves a JSON-looking string alone where the schema says string', () => {
    expect(coerceToolArgs(schema, { version: '{"a":1}' })).toEqual({ version: '{"a":1}' });
  });

  it('leaves invalid JSON as the original string for validation to report', () => {
    expect(coerceToolArgs(schema, { opts: '{not json' })).toEqual({ opts: '{not json' });
  });

  it('does not mutate its input and shares unchanged values', () => {
    const nested = { depth: 1 };
    const input = { count: '5', opts: nested };
    const out = coerceToolArgs(schema, input);
    expect(input.count).toBe('5');
    expect(out.opts).toBe(nested);
  });

  it('follows local $ref definitions', () => {
    const refSchema = {
      type: 'object',
      $defs: { n: { type: 'integer' } },
      properties: { a: { $ref: '#/$defs/n' } },
    };
    expect(coerceToolArgs(refSchema, { a: '9' })).toEqual({ a: 9 });
  });

  it('uses additionalProperties for keys the schema does not list', () => {
    const mapSchema = { type: 'object', additionalProperties: { type: 'boolean' } };
    expect(coerceToolArgs(mapSchema, { x: 'true' })).toEqual({ x: true });
  });

  it('works on the JSON Schema of a zod schema (optional, nullable, defaults)', () => {
    const zod = z.object({
      n: z.number().int().optional(),
      b: z.boolean().nullable(),
      s: z.string().default('x'),
      tags: z.array(z.string()).optional(),
    });
    const json = parametersJsonSchema(zod);
    const out = coerceToolArgs(json, { n: '3', b: 'null', s: '1.20', tags: '["a","b"]' });
    expect(out).toEqual({ n: 3, b: null, s: '1.20', tags: ['a', 'b'] });
    expect(zod.parse(out)).toEqual(out);
  });
});
