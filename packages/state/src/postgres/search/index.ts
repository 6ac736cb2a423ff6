/** Text search of the PostgreSQL session store. */
export type { PostgresSearchOptions } from './filters.js';
export { RANKED_CANDIDATES, searchMessagesPg } from './search-messages.js';
