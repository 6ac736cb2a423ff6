/**
 * Standard input that crosses a group's edge. The parser flattens subshells and compound
 * commands, so `(echo a; echo b) | sh` arrives as three commands in three pipelines; it announces
 * links instead (`CommandSink.link`): "what pipeline P carries now" for the commands of a group
 * that is a pipeline stage (`… | (sh)`), and "the output of the group that ran in pipelines P to
 * Q" for the stage after it. This table answers them from the pipelines the walk has seen.
 */
import type { Pipeline } from '../rules/site.js';
import { carriesText, concatFeeds, type Feed } from './feed.js';

/** What a linked command reads: the text, when known, and the pipeline facts behind it. */
export interface LinkedInput {
  readonly feed: Feed | undefined;
  /** `Pipeline.facts` of what produced it (a fetcher, a decoder …). */
  readonly facts: number;
}

/** One finished pipeline that printed something known, or whose commands have facts. */
interface Ended {
  readonly id: number;
  readonly feed: Feed | undefined;
  readonly facts: number;
}

/** Finished pipelines remembered for a group's output; an older part makes it computed. */
const REMEMBERED = 32;

const NOTHING: LinkedInput = { feed: undefined, facts: 0 };

/** `feed` and `facts` as an input for the commands a command runs, or `undefined` for none. */
export function linkedInput(feed: Feed | undefined, facts: number): LinkedInput | undefined {
  return feed === undefined && facts === 0 ? undefined : { feed, facts };
}

/** Per script: the announced links and the recently finished pipelines. */
export class GroupLinks {
  // Both made on first use: most scripts end pipelines with facts but announce no link.
  private links: Map<number, LinkedInput> | undefined;
  private readonly ended: Ended[] = [];
  /** The highest pipeline id forgotten from {@link ended}. */
  private forgotten = -1;

  /** Whether a finished pipeline printed or did something a group's reader may care about. */
  static matters(line: Pipeline): boolean {
    return line.facts !== 0 || carriesText(line.feed);
  }

  /** Notes a finished pipeline (one that {@link GroupLinks.matters}). */
  end(id: number, line: Pipeline): void {
    if (this.ended.length === REMEMBERED) {
      const oldest = this.ended.shift() as Ended;
      this.forgotten = Math.max(this.forgotten, oldest.id);
    }
    this.ended.push({ id, feed: line.feed, facts: line.facts });
  }

  /** Link `link` reads what `line` carries now (its last stage's output). */
  pipe(link: number, line: Pipeline | undefined): void {
    const feed = line !== undefined && line.count > 0 ? line.feed : undefined;
    const facts = line?.facts ?? 0;
    // Nothing known flows in (most groups): the link reads as never announced.
    if (feed !== undefined || facts !== 0) {
      this.links ??= new Map();
      this.links.set(link, { feed, facts });
    }
  }

  /**
   * Link `link` reads the output of the group that ran in pipelines `from` to `to`: each
   * pipeline's output, in order. A part that was not remembered makes the text computed.
   */
  group(link: number, from: number, to: number): void {
    let feed: Feed | undefined;
    let facts = 0;
    const parts = this.ended.filter((ended) => ended.id >= from && ended.id <= to);
    parts.sort((a, b) => a.id - b.id);
    for (const part of parts) {
      facts |= part.facts;
      if (part.feed !== undefined)
        feed = feed === undefined ? part.feed : concatFeeds(feed, part.feed);
    }
    if (this.forgotten >= from) {
      feed = { texts: feed?.texts ?? [], dynamic: true, origin: feed?.origin ?? 0 };
    }
    this.links ??= new Map();
    this.links.set(link, { feed, facts });
  }

  /** What a command with `link` reads; nothing known when the link was never announced. */
  get(link: number): LinkedInput {
    return this.links?.get(link) ?? NOTHING;
  }
}
