/** A hand-built `ToolContext` for calling the `cronjob` tool through a real `ToolRegistry`. */
import type { ToolContext, ToolOrigin } from '@hermes/tools';

/**
 * A context for session `sessionId`, from `origin` when given. The cronjob tool never runs
 * commands, so no execution environment is built: the field is typed but left empty (cron does
 * not depend on @hermes/environments), and a test would fail loudly if the tool touched it.
 */
export function toolContext(origin?: ToolOrigin, sessionId = 'sess-tool'): ToolContext {
  return {
    sessionId,
    platform: origin?.platform ?? 'cli',
    ...(origin ? { origin } : {}),
    hermesHome: process.env.HERMES_HOME ?? '',
    environment: undefined as unknown as ToolContext['environment'],
    signal: new AbortController().signal,
  };
}
