/**
 * InProcessLane: the SessionLane contract (the same suite a database-backed lane must pass),
 * then what only this lane reports, and its invariants under many overlapping turns.
 */
import { describe, expect, it } from 'vitest';
import { InProcessLane } from '../src/index.js';
import { describeSessionLaneContract } from '../src/testing.js';

describeSessionLaneContract('InProcessLane', (options) => new InProcessLane(options));

describe('InProcessLane', () => {
  it('counts the acquires still waiting (for /health)', async () => {
    const lane = new InProcessLane({ maxConcurrent: 1 });
    const first = await lane.acquire('a');
    const controller = new AbortController();
    const waiting = [lane.acquire('a'), lane.acquire('b'), lane.acquire('c', controller.signal)];
    expect(lane.waiting).toBe(3);
    controller.abort();
    await expect(waiting[2]).rejects.toMatchObject({ name: 'AbortError' });
    expect(lane.waiting).toBe(2);
    first.release();
    (await waiting[0])?.release();
    (await waiting[1])?.release();
    expect(lane.waiting).toBe(0);
  });

  it('grants free slots to waiters of other keys in arrival order', async () => {
    const lane = new InProcessLane({ maxConcurrent: 1 });
    const order: string[] = [];
    const holder = await lane.acquire('x');
    const turns = ['a', 'b', 'c'].map(async (key) => {
      const lease = await lane.acquire(key);
      order.push(key);
      lease.release();
    });
    holder.release();
    await Promise.all(turns);
    expect(order).toEqual(['a', 'b', 'c']);
  });

  it('rejects a bad bound', () => {
    expect(() => new InProcessLane({ maxConcurrent: 0 })).toThrow(/maxConcurrent/);
  });

  it('never runs two turns of a key, nor more than the bound, under load', async () => {
    const lane = new InProcessLane({ maxConcurrent: 3 });
    const running = new Set<string>();
    let peak = 0;
    let done = 0;
    const turn = async (key: string, hops: number) => {
      const lease = await lane.acquire(key);
      expect(running.has(key)).toBe(false);
      running.add(key);
      peak = Math.max(peak, running.size);
      expect(running.size).toBeLessThanOrEqual(3);
      for (let i = 0; i < hops; i++) await new Promise<void>((r) => setImmediate(r));
      running.delete(key);
      lease.release();
      done++;
    };
    const turns = [];
    for (let i = 0; i < 300; i++) turns.push(turn(`k${i % 7}`, i % 4));
    await Promise.all(turns);
    expect(done).toBe(300);
    expect(peak).toBe(3);
    expect(lane.held()).toEqual([]);
  });
});
