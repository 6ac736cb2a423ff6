import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
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
    // The condition turns true on its third look, however slowly the polls come.
    let looks = 0;
    await expect(waitFor(() => ++looks >= 3, 60_000)).resolves.toBe(true);
    expect(looks).toBe(3);
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

/** Two connected local sockets: bytes written to `a` reach `b`'s kernel buffer at once. */
async function socketPair(): Promise<{ a: Socket; b: Socket; close: () => void }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  const a = connect((server.address() as AddressInfo).port, '127.0.0.1');
  await new Promise((resolve) => a.once('connect', resolve));
  const b = await accepted;
  return {
    a,
    b,
    close: () => {
      a.destroy();
      b.destroy();
      server.close();
    },
  };
}

/**
 * A loaded machine: right after data reached this process, the process does not run for `ms`.
 * The stall comes in the event loop's check phase, so the next turn runs the timers that came due
 * meanwhile before the socket's callback. Resolves once the data has been handled.
 */
function stallAfterData(pair: { a: Socket; b: Socket }, ms: number): Promise<void> {
  const handled = new Promise<void>((resolve) => pair.b.once('data', () => resolve()));
  setImmediate(() => {
    pair.a.write('x');
    const end = Date.now() + ms;
    while (Date.now() < end) {
      // Busy: as far as the event loop can tell, the process was descheduled.
    }
  });
  return handled;
}

describe('deadlines on a stalled process', () => {
  it('settleWithin counts a promise whose event arrived while the process was stalled', async () => {
    const pair = await socketPair();
    try {
      const arrived = stallAfterData(pair, 100).then(() => 'arrived');
      await expect(settleWithin(arrived, 20, 'x')).resolves.toEqual({
        status: 'fulfilled',
        value: 'arrived',
      });
    } finally {
      pair.close();
    }
  });

  it('waitFor sees a condition that an event made true while the process was stalled', async () => {
    const pair = await socketPair();
    try {
      let flag = false;
      const polling = waitFor(() => flag, 20);
      await stallAfterData(pair, 100).then(() => {
        flag = true;
      });
      await expect(polling).resolves.toBe(true);
    } finally {
      pair.close();
    }
  });
});
