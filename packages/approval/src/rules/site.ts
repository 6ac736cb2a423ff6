/**
 * The {@link Site} the analyser hands to every rule: one invocation with what is upstream of it
 * in its pipeline. Pipelines are filled while the command line is parsed, and keep only facts and
 * the last few invocations, so a 16,000-stage pipeline holds no tree in memory.
 */
import type { Feed } from '../feeds/feed.js';
import { type LinkedInput, linkedInput } from '../feeds/group-links.js';
import type { Invocation } from '../shell/unwrap.js';
import { AGENT_LOOKUP, DECODER, FETCHER } from './fact-bits.js';
import type { PathContext } from './paths.js';
import type { Site, UpstreamFact } from './types.js';

/** How many upstream invocations a rule may look at (`echo … | psql`). */
const RECENT = 8;

const FACT_BITS: Readonly<Record<UpstreamFact, number>> = {
  fetcher: FETCHER,
  decoder: DECODER,
  agentLookup: AGENT_LOOKUP,
};
const UPSTREAM_BITS = FETCHER | DECODER | AGENT_LOOKUP;

const NONE: readonly Invocation[] = [];

/** One pipeline, as far as it has been read: its length, facts, and last invocations. */
export class Pipeline {
  /** Invocations added so far. */
  count = 0;
  /** {@link FACT_BITS} of every invocation added so far. */
  facts = 0;
  /** What the last invocation added sends down the pipe, when the line knows (see `feeds/`). */
  feed: Feed | undefined;
  /** The last {@link RECENT} invocations, a ring indexed by `count`; allocated on first use. */
  private recent: Invocation[] | undefined;

  /** Empties the pipeline so the object can serve the next one (see `ScriptWalk`). */
  reset(): void {
    this.count = 0;
    this.facts = 0;
    this.feed = undefined;
  }

  /**
   * Appends `inv`, whose {@link factBits} are `bits` and whose output down the pipe is `feed`,
   * after its site has been judged.
   */
  add(inv: Invocation, bits: number, feed: Feed | undefined): void {
    this.facts |= bits & UPSTREAM_BITS;
    this.feed = feed;
    // A fixed ring: reused across pipelines, so adding allocates nothing.
    this.recent ??= new Array<Invocation>(RECENT);
    this.recent[this.count % RECENT] = inv;
    this.count += 1;
  }

  /** The last invocations added, oldest first. */
  last(): readonly Invocation[] {
    const ring = this.recent;
    if (ring === undefined || this.count === 0) return NONE;
    const size = Math.min(this.count, RECENT);
    const out: Invocation[] = [];
    for (let i = this.count - size; i < this.count; i += 1)
      out.push(ring[i % RECENT] as Invocation);
    return out;
  }
}

/** One invocation in its pipeline; built just before it is judged. */
export class InvocationSite implements Site {
  readonly index: number;
  /** What the stage before this one sends down the pipe, when the line knows. */
  readonly stdin: Feed | undefined;
  private readonly facts: number;
  private readonly line: Pipeline | undefined;

  /**
   * `linked` is what the command reads when its input crosses a group's edge (`… | (sh)`,
   * `(echo a) | sh`): it is then judged as a later stage of a pipeline, whatever its position
   * in its own.
   */
  constructor(
    readonly inv: Invocation,
    line: Pipeline | undefined,
    readonly cwd: string | undefined,
    readonly paths: PathContext,
    linked?: LinkedInput,
  ) {
    const count = line?.count ?? 0;
    this.line = line;
    this.index = linked !== undefined && count === 0 ? 1 : count;
    this.facts = (line?.facts ?? 0) | (linked?.facts ?? 0);
    this.stdin = count > 0 ? line?.feed : linked?.feed;
  }

  /** Read while the site is judged, before the pipeline moves on. */
  get upstream(): readonly Invocation[] {
    return this.line === undefined ? NONE : this.line.last();
  }

  upstreamHas(fact: UpstreamFact): boolean {
    return (this.facts & FACT_BITS[fact]) !== 0;
  }

  /**
   * What this command reads on standard input, for the commands it runs itself (its
   * substitutions, the code it carries): the text and facts of what is upstream.
   */
  get input(): LinkedInput | undefined {
    return linkedInput(this.stdin, this.facts & UPSTREAM_BITS);
  }
}
