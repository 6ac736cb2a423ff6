/** The job the store tests start from: hourly, due at `dueAt`, answered to its origin. */
import type { NewJob } from '../../src/index.js';

export function newJobDueAt(dueAt: number, overrides: Partial<NewJob> = {}): NewJob {
  return {
    name: 'inbox',
    prompt: 'Summarize my inbox',
    schedule: { kind: 'interval', minutes: 60 },
    scheduleText: 'every 1h',
    deliver: { kind: 'origin' },
    nextRunAt: dueAt,
    ...overrides,
  };
}
