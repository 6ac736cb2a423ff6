/**
 * @packageDocumentation
 * @hermes/loop — scaffold. The agent itself: one turn of `runConversation`, read top to bottom like the seed's skeleton. See README.md for the planned API.
 */
export {};
