import { describe, expect, it } from 'vitest';
import {
  ContractViolation,
  contractViolation,
  deepFreeze,
  isContractViolation,
  settleWithin,
  waitFor,
  within,
} from '../src/testing.ts';

const never = new Promise<never>(() => {});

describe('contract-suite primitives', () => {
  it('contractViolation throws a named ContractViolation', () => {
    expect(() => contractViolation('store deleted rows')).toThrow(ContractViolation);
    try {
      contractViolation('x');
    } catch (error) {
      expect(isContractViolation(error)).toBe(true);
      expect((error as Error).name).toBe('ContractViolation');
    }
    expect(isContractViolation(new Error('x'))).toBe(false);
  });

  it('settleWithin reports fulfilment and rejection, and fails a promise that hangs', async () => {
    await expect(settleWithin(Promise.resolve(3), 100, 'x')).resolves.toEqual({
      status: 'fulfilled',
      value: 3,
    });
    const boom = new Error('boom');
    await expect(settleWithin(Promise.reject(boom), 100, 'x')).resolves.toEqual({
      status: 'rejected',
      reason: boom,
    });
    await expect(settleWithin(never, 20, 'chat()')).rejects.toThrow(
      'chat() did not settle within 20 ms',
    );
  });

  it('within returns the value, rethrows the rejection, and fails on the deadline', async () => {
    await expect(within(Promise.resolve('ok'), 100, 'x')).resolves.toBe('ok');
    await expect(within(Promise.reject(new Error('boom')), 100, 'x')).rejects.toThrow('boom');
    await expect(within(never, 20, 'execute()')).rejects.toSatisfy(isContractViolation);
  });

  it('waitFor polls until the condition holds or time runs out', async () => {
    let flag = false;
    setTimeout(() => {
      flag = true;
    }, 10);
    await expect(waitFor(() => flag, 1_000)).resolves.toBe(true);
    await expect(waitFor(() => false, 20)).resolves.toBe(false);
  });

  it('deepFreeze freezes nested objects and arrays', () => {
    const value = deepFreeze({ a: { b: [1, { c: 2 }] } });
    expect(Object.isFrozen(value.a.b[1])).toBe(true);
    expect(() => {
      (value.a.b as unknown[]).push(3);
    }).toThrow(TypeError);
  });

  it('deepFreeze walks into already-frozen containers, survives cycles, and skips buffers', () => {
    const inner = { n: 1 };
    const cyclic: Record<string, unknown> = {
      shell: Object.freeze({ inner }),
      bytes: Buffer.from('ab'),
    };
    cyclic.self = cyclic;
    deepFreeze(cyclic);
    expect(Object.isFrozen(inner)).toBe(true);
    expect(Object.isFrozen(cyclic)).toBe(true);
    expect(Object.isFrozen(cyclic.bytes)).toBe(false);
  });
});
