/**
 * The {@link Site} the analyser hands to every rule: one invocation with what is upstream of it
 * in its pipeline. Pipelines are filled while the command line is parsed, and keep only facts and
 * the last few invocations, so a 16,000-stage pipeline holds no tree in memory.
 */
import type { Invocation } from '../shell/unwrap.js';
import { isAgentLookup, isDecoder, isFetcher } from './carriers.js';
import type { PathContext } from './paths.js';
import type { Site, UpstreamFact } from './types.js';

/** How many upstream invocations a rule may look at (`echo … | psql`). */
const RECENT = 8;

const FACT_BITS: Readonly<Record<UpstreamFact, number>> = {
  fetcher: 1,
  decoder: 2,
  agentLookup: 4,
};

const NONE: readonly Invocation[] = Object.freeze([]);

/** One pipeline, as far as it has been read: its length, facts, and last invocations. */
export class Pipeline {
  /** Invocations added so far. */
  count = 0;
  /** {@link FACT_BITS} of every invocation added so far. */
  facts = 0;
  private recent: Invocation[] | undefined;

  /** Empties the pipeline so the object can serve the next one (see `ScriptWalk`). */
  reset(): void {
    this.count = 0;
    this.facts = 0;
    if (this.recent !== undefined) this.recent.length = 0;
  }

  /** Appends `inv` after its site has been judged. */
  add(inv: Invocation): void {
    this.count += 1;
    if (isFetcher(inv)) this.facts |= FACT_BITS.fetcher;
    if (isDecoder(inv)) this.facts |= FACT_BITS.decoder;
    if (isAgentLookup(inv)) this.facts |= FACT_BITS.agentLookup;
    this.recent ??= [];
    this.recent.push(inv);
    if (this.recent.length > RECENT) this.recent.shift();
  }

  /** The last invocations added, oldest first. */
  last(): readonly Invocation[] {
    return this.recent === undefined ? NONE : this.recent.slice();
  }
}

/** One invocation in its pipeline; built just before it is judged. */
export class InvocationSite implements Site {
  readonly index: number;
  private readonly facts: number;
  private readonly line: Pipeline | undefined;

  constructor(
    readonly inv: Invocation,
    line: Pipeline | undefined,
    readonly cwd: string | undefined,
    readonly paths: PathContext,
  ) {
    this.line = line;
    this.index = line?.count ?? 0;
    this.facts = line?.facts ?? 0;
  }

  /** Read while the site is judged, before the pipeline moves on. */
  get upstream(): readonly Invocation[] {
    return this.line === undefined ? NONE : this.line.last();
  }

  upstreamHas(fact: UpstreamFact): boolean {
    return (this.facts & FACT_BITS[fact]) !== 0;
  }
}
