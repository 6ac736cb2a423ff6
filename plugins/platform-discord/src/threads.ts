/**
 * Which Discord channels are threads, and of which parent. In Discord's API a thread is a channel
 * of its own (types 10, 11, 12; a forum post is one too), and a message in it names only the
 * thread's id. The gateway must see it as `chatId` = the parent channel, `threadId` = the thread,
 * so each thread is its own session. The directory learns threads from gateway events and asks
 * REST (`GET /channels/<id>`) about an id it has never seen; both kinds of answer are cached, in a
 * bounded map, since a bot sees an unbounded number of channels over its life.
 */
import type { DispatchEvent } from './gateway-connection.js';

/** Discord's channel types for announcement, public and private threads. */
export const THREAD_CHANNEL_TYPES: ReadonlySet<number> = new Set([10, 11, 12]);

/** What the adapter needs to know about a channel a message came from. */
export interface ChannelPlace {
  /** Set when the channel is a thread. */
  readonly thread?: {
    readonly id: string;
    readonly parentId: string;
    /** Who started the thread; the bot's own threads need no mention. */
    readonly ownerId?: string;
  };
}

/** How many channels the directory remembers; the oldest are forgotten first. */
export const DEFAULT_CHANNEL_CACHE_SIZE = 5_000;

const NOT_A_THREAD: ChannelPlace = {};

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * A channel object from Discord (an event or a REST answer) → its place, or `undefined` when it is
 * not shaped like a channel. Checked field by field: it is outside input.
 */
export function placeOf(channel: unknown): { id: string; place: ChannelPlace } | undefined {
  if (typeof channel !== 'object' || channel === null) return undefined;
  const raw = channel as Record<string, unknown>;
  const id = text(raw.id);
  if (!id || typeof raw.type !== 'number') return undefined;
  const parentId = text(raw.parent_id);
  if (!THREAD_CHANNEL_TYPES.has(raw.type) || !parentId) return { id, place: NOT_A_THREAD };
  const ownerId = text(raw.owner_id);
  return { id, place: { thread: { id, parentId, ...(ownerId ? { ownerId } : {}) } } };
}

/** Remembers channels; `resolve` answers from memory or asks Discord once per unknown id. */
export class ChannelDirectory {
  readonly #known = new Map<string, ChannelPlace>();
  readonly #asking = new Map<string, Promise<ChannelPlace>>();

  /**
   * @param fetchChannel - `GET /channels/<id>` (throws when Discord refuses).
   * @param onLookupFailed - Told the id whose lookup failed (the message is treated as not in a thread).
   */
  constructor(
    private readonly fetchChannel: (id: string) => Promise<unknown>,
    private readonly onLookupFailed: (id: string, error: unknown) => void = () => {},
    private readonly limit = DEFAULT_CHANNEL_CACHE_SIZE,
  ) {}

  /** How many channels are remembered (for tests of the bound). */
  get size(): number {
    return this.#known.size;
  }

  /** Records what a channel object says. */
  learn(channel: unknown): void {
    const found = placeOf(channel);
    if (found) this.#remember(found.id, found.place);
  }

  /** Learns from the gateway events that describe channels and threads. */
  observe(event: DispatchEvent): void {
    const d = (event.d ?? {}) as Record<string, unknown>;
    switch (event.t) {
      case 'THREAD_CREATE':
      case 'THREAD_UPDATE':
      case 'CHANNEL_CREATE':
      case 'CHANNEL_UPDATE':
        this.learn(d);
        return;
      case 'THREAD_DELETE':
      case 'CHANNEL_DELETE':
        if (typeof d.id === 'string') this.#known.delete(d.id);
        return;
      case 'THREAD_LIST_SYNC':
      case 'GUILD_CREATE':
        for (const list of [d.threads, d.channels]) {
          if (Array.isArray(list)) for (const channel of list) this.learn(channel);
        }
        return;
      default:
    }
  }

  /** Where the guild channel `id` is: a thread (and its parent) or not. */
  async resolve(id: string): Promise<ChannelPlace> {
    const known = this.#known.get(id);
    if (known) return known;
    const pending = this.#asking.get(id);
    if (pending) return pending;
    const asking = this.fetchChannel(id)
      .then((channel) => {
        const found = placeOf(channel);
        const place = found?.id === id ? found.place : NOT_A_THREAD;
        this.#remember(id, place);
        return place;
      })
      .catch((error: unknown) => {
        // Not cached: the next message from this channel asks again.
        this.onLookupFailed(id, error);
        return NOT_A_THREAD;
      })
      .finally(() => this.#asking.delete(id));
    this.#asking.set(id, asking);
    return asking;
  }

  #remember(id: string, place: ChannelPlace): void {
    // Re-inserting moves the id to the young end, so the map's first key is the oldest.
    this.#known.delete(id);
    this.#known.set(id, place);
    while (this.#known.size > this.limit) {
      const oldest = this.#known.keys().next().value as string;
      this.#known.delete(oldest);
    }
  }
}
