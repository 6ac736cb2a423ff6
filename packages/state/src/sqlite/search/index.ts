/**
 * Full-text search and the `session_search` modes over a SQLite session database. Pure
 * functions over a better-sqlite3 handle; statements are prepared once per handle.
 */
export { type DiscoverOptions, discoverSessions, lineageRoot } from './discover.js';
export { sanitizeFts5Query } from './sanitize.js';
export {
  type DiscoveredSession,
  DiscoveredSessionSchema,
  type DiscoveryResult,
  DiscoveryResultSchema,
  type MessageView,
  MessageViewSchema,
  type ScrollResult,
  ScrollResultSchema,
  type SessionSummary,
  SessionSummarySchema,
  type SessionTranscript,
  SessionTranscriptSchema,
  type ToolCallView,
  ToolCallViewSchema,
} from './schemas.js';
export { type MessageSearchOptions, searchMessages, trigramAvailable } from './search-messages.js';
export {
  type BrowseOptions,
  browseRecentSessions,
  type ReadSessionOptions,
  readSession,
  type ScrollOptions,
  scrollSession,
} from './session-views.js';
