/**
 * How tests wait for a state they cannot subscribe to (a server seeing a request, an event
 * handler having run): `vi.waitFor` polling often, for long. The timeout is only a backstop for a
 * loaded machine; the test goes on as soon as the state holds. Vitest's own default (1 s) is a
 * race on a busy CI runner.
 */
export const PATIENT = { timeout: 15_000, interval: 5 } as const;

/**
 * The contract suite's `abortDeadlineMs` for adapters over real HTTP: how long an already-aborted
 * call may take to reject. A backstop only (the default, 1 s, is a race on a loaded machine): the
 * call sends nothing, so anything that settles it at all is the abort.
 */
export const ABORT_DEADLINE_BACKSTOP_MS = 15_000;
