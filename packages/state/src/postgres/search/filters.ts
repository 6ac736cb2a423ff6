/** The filters every search strategy applies, as parameterized SQL. */
import type { SearchOptions } from '../../search.js';
import { clampCount } from '../../sqlite/search/rows.js';

/** Options of the PostgreSQL search: the seam's options plus the search modes' filters. */
export interface PostgresSearchOptions extends SearchOptions {
  /** Include archived (compacted, inactive) rows. Default `true`; wins over `activeOnly`. */
  readonly includeArchived?: boolean;
  /** Only rows with one of these roles. */
  readonly roles?: readonly ('system' | 'user' | 'assistant' | 'tool')[];
}

/** Default and largest number of hits (as in SQLite). */
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 1000;

/** Statement parameters, appended to as conditions are built. */
export class Params {
  readonly values: unknown[] = [];
  /** Adds a value and returns its placeholder (`$n`). */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Normalized filters. */
export interface SearchFilters {
  readonly sessionId: string | null;
  readonly source: string | null;
  readonly includeArchived: boolean;
  readonly roles: readonly string[] | null;
  readonly limit: number;
}

/** The options with defaults applied and the limit clamped to 1…1000. */
export function toFilters(options: PostgresSearchOptions): SearchFilters {
  return {
    sessionId: options.sessionId ?? null,
    source: options.source ?? null,
    includeArchived: options.includeArchived ?? !(options.activeOnly ?? false),
    roles: options.roles ?? null,
    limit: clampCount(options.limit, DEFAULT_LIMIT, MAX_LIMIT),
  };
}

/**
 * The WHERE conditions of `filters` on the messages row `m` (`TRUE` when none). Only the filters
 * in use appear, so the planner sees a plain statement.
 */
export function filterSql(filters: SearchFilters, params: Params): string {
  const conditions = ['TRUE'];
  if (filters.sessionId !== null)
    conditions.push(`m.session_id = ${params.add(filters.sessionId)}`);
  if (filters.source !== null) {
    conditions.push(
      `m.session_id IN (SELECT id FROM sessions WHERE source = ${params.add(filters.source)})`,
    );
  }
  if (!filters.includeArchived) conditions.push('m.active');
  if (filters.roles !== null) conditions.push(`m.role = ANY(${params.add(filters.roles)}::text[])`);
  return conditions.join(' AND ');
}
