/**
 * Step 3: a message for a session that is already working. `steer` (the default) adds it to the
 * running turn as a note the model sees at its next step; `interrupt` stops the running turn and
 * runs the new message next; `queue` runs it after everything already waiting. The person is
 * told which happened. A message that brought its own sink (an HTTP request) always queues: its
 * client is waiting for an answer of its own, which a steer would never give it.
 */
import type { BusyPolicy } from '../settings/gateway-settings.js';
import { INTERRUPTED, queuedNotice, STEERED } from './notices.js';
import type { SessionSlot, TurnWork } from './session-slots.js';

/** What the busy policy did with a message. */
export type BusyOutcome = 'steered' | 'interrupted' | 'queued';

/** Puts work on the slot's queue (in front when `first`) and makes sure its worker runs. */
export type Enqueue = (slot: SessionSlot, work: TurnWork, first: boolean) => void;

/**
 * Applies `policy` to `work` arriving while `slot` is busy, and tells the sender. A steer needs a
 * turn inside the model loop; before one starts (the session waits for its lane, or compresses)
 * the message is queued instead.
 */
export async function applyBusyPolicy(
  slot: SessionSlot,
  work: TurnWork,
  policy: BusyPolicy,
  enqueue: Enqueue,
): Promise<BusyOutcome> {
  const effective = work.reply.ownSink ? 'queue' : policy;
  if (effective === 'steer' && slot.agent?.running && slot.agent.steer(work.text)) {
    await work.reply.notice(STEERED);
    return 'steered';
  }
  if (effective === 'interrupt') {
    slot.current?.stop.abort();
    enqueue(slot, work, true);
    await work.reply.notice(INTERRUPTED);
    return 'interrupted';
  }
  const ahead = slot.queue.length + (slot.current ? 1 : 0);
  enqueue(slot, work, false);
  await work.reply.notice(queuedNotice(ahead));
  return 'queued';
}
