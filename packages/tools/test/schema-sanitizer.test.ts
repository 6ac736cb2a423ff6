import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parametersJsonSchema, sanitizeToolSchema } from '../src/index.js';

describe('sanitizeToolSchema', () => {
  it('drops schema metadata and zod safe-integer bounds', () => {
    const json = parametersJsonSchema(z.object({ n: z.number().int() }));
    expect(json.$schema).toBeDefined();
    expect(sanitizeToolSchema(json)).toEqual({
      type: 'object',
      properties: { n: { type: 'integer' } },
      required: ['n'],
    });
  });

  it('ensures a top-level object with properties', () => {
    expect(sanitizeToolSchema({})).toEqual({ type: 'object', properties: {} });
    expect(sanitizeToolSchema({ type: 'object' })).toEqual({ type: 'object', properties: {} });
  });

  it('limits required to declared properties and gives arrays items', () => {
    const out = sanitizeToolSchema({
      type: 'object',
      properties: { list: { type: 'array' } },
      required: ['list', 'ghost'],
    });
    expect(out).toEqual({
      type: 'object',
      properties: { list: { type: 'array', items: {} } },
      required: ['list'],
    });
  });

  it('inlines local $refs', () => {
    const out = sanitizeToolSchema({
      type: 'object',
      $defs: { point: { type: 'object', properties: { x: { type: 'number' } } } },
      properties: {
        a: { $ref: '#/$defs/point' },
        b: { type: 'array', items: { $ref: '#/$defs/point' } },
      },
    });
    expect(out).toEqual({
      type: 'object',
      properties: {
        a: { type: 'object', properties: { x: { type: 'number' } } },
        b: { type: 'array', items: { type: 'object', properties: { x: { type: 'number' } } } },
      },
    });
  });

  it('survives a recursive $ref without looping forever', () => {
    const out = sanitizeToolSchema({
      type: 'object',
      $defs: { node: { type: 'object', properties: { child: { $ref: '#/$defs/node' } } } },
      properties: { root: { $ref: '#/$defs/node' } },
    });
    expect(JSON.stringify(out).length).toBeLessThan(100_000);
  });

  it('gemini: removes unsupported keywords and folds type lists into nullable', () => {
    const out = sanitizeToolSchema(
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          default: { type: ['string', 'null'], default: 'x' },
          n: { type: 'number', exclusiveMinimum: 0 },
        },
      },
      { profile: 'gemini' },
    );
    expect(out).toEqual({
      type: 'object',
      properties: { default: { type: 'string', nullable: true }, n: { type: 'number' } },
    });
  });

  it('does not modify its input or share objects with it', () => {
    const input = { type: 'object', properties: { e: { type: 'string', enum: ['a', 'b'] } } };
    const out = sanitizeToolSchema(input);
    expect(input).toEqual({
      type: 'object',
      properties: { e: { type: 'string', enum: ['a', 'b'] } },
    });
    const outEnum = (out.properties as Record<string, { enum: string[] }>).e?.enum;
    expect(outEnum).toEqual(['a', 'b']);
    expect(outEnum).not.toBe(input.properties.e.enum);
  });

  it('drops extra keywords on request', () => {
    expect(
      sanitizeToolSchema(
        { type: 'object', properties: { a: { type: 'string', format: 'uri' } } },
        { dropKeywords: ['format'] },
      ),
    ).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
    });
  });
});
