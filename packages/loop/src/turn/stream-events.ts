/** Maps the provider's stream events to the agent's events for one turn. */
import type { StreamEvent } from '@hermes/providers';
import type { AgentEventBus } from '../events/event-bus.js';

/** A stream observer that forwards visible text and reasoning deltas. */
export function forwardStream(events: AgentEventBus, turnId: string): (event: StreamEvent) => void {
  return (event) => {
    if (event.type === 'text_delta')
      events.emit({ type: 'text_delta', turnId, delta: event.delta });
    else if (event.type === 'reasoning_delta') {
      events.emit({ type: 'reasoning_delta', turnId, delta: event.delta });
    }
  };
}
