/**
 * `hermes sessions list|show|search|export|delete|prune` over the session database: SQLite
 * (`HERMES_HOME/state.db`, where a missing file means no sessions: nothing is created just to
 * look), or the PostgreSQL database `storage:` selects.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { ExitCode } from '@hermes/config';
import { isHermesError } from '@hermes/protocol';
import {
  defaultStatePath,
  openSessionStore,
  type SessionRecord,
  type SessionStore,
  trajectoryJsonl,
} from '@hermes/state';
import type { CommandContext } from '../command-context.js';
import {
  intOption,
  type ParsedCommandArgs,
  parseCommandArgs,
  stringOption,
  usageFailure,
  withUsage,
} from '../config/command-args.js';
import { searchResults, sessionFacts, sessionTable, transcript } from './sessions/format.js';

const USAGE = `Usage: hermes sessions <subcommand>

  list [--limit N] [--source S] [--all] [--json]   past sessions, newest first
  show <id> [--all] [--json]                       one session and its transcript
  search <query> [--limit N] [--json]              full-text search over every message
  export <id> [--jsonl] [-o <file>]                the session as JSON (or trajectory JSON Lines)
  delete <id>                                      delete a session and its messages
  prune --older-than <days>                        delete ended sessions older than that

<id> may be a unique prefix of a session id. --all includes archived sessions and rows.
`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  limit: { type: 'string', short: 'n' },
  source: { type: 'string' },
  all: { type: 'boolean' },
  json: { type: 'boolean' },
  jsonl: { type: 'boolean' },
  output: { type: 'string', short: 'o' },
  'older-than': { type: 'string' },
} as const;

type Args = ParsedCommandArgs['values'];
type Sub = (
  store: SessionStore,
  rest: readonly string[],
  values: Args,
  ctx: CommandContext,
) => Promise<number>;

const DAY_MS = 86_400_000;

/** The session `idOrPrefix` names: an exact id, or the one session whose id starts with it. */
async function resolveId(store: SessionStore, idOrPrefix: string, ctx: CommandContext) {
  if (await store.getSession(idOrPrefix)) return idOrPrefix;
  const matches = (await store.listSessions({ includeArchived: true })).filter((s) =>
    s.id.startsWith(idOrPrefix),
  );
  if (matches.length === 1) return matches[0]?.id;
  ctx.stderr.write(
    matches.length === 0
      ? `hermes sessions: no session '${idOrPrefix}'; see 'hermes sessions list'\n`
      : `hermes sessions: '${idOrPrefix}' matches ${matches.length} sessions; give more of the id\n`,
  );
  return undefined;
}

const list: Sub = async (store, _rest, values, ctx) => {
  const limit = intOption(values, 'limit') ?? 20;
  const source = stringOption(values, 'source');
  const sessions = await store.listSessions({
    limit,
    includeArchived: values.all === true,
    ...(source ? { source } : {}),
  });
  if (values.json) ctx.stdout.write(`${JSON.stringify(sessions, null, 2)}\n`);
  else if (sessions.length === 0) ctx.stdout.write('No sessions yet.\n');
  else ctx.stdout.write(`${sessionTable(sessions).join('\n')}\n`);
  return ExitCode.ok;
};

const show: Sub = async (store, [idArg], values, ctx) => {
  if (idArg === undefined) return usageFailure(ctx, 'sessions', "'show' needs a session id");
  const id = await resolveId(store, idArg, ctx);
  if (id === undefined) return ExitCode.failure;
  if (values.json) {
    ctx.stdout.write(`${JSON.stringify(await store.export(id), null, 2)}\n`);
    return ExitCode.ok;
  }
  const session = await store.getSession(id);
  const messages = await store.getMessages(id, { includeInactive: values.all === true });
  if (!session) return ExitCode.failure;
  ctx.stdout.write(`${[...sessionFacts(session), '', ...transcript(messages)].join('\n')}\n`);
  return ExitCode.ok;
};

const search: Sub = async (store, words, values, ctx) => {
  const query = words.join(' ').trim();
  if (query === '') return usageFailure(ctx, 'sessions', "'search' needs a query");
  const hits = await store.search(query, { limit: intOption(values, 'limit') ?? 20 });
  if (values.json) {
    ctx.stdout.write(`${JSON.stringify(hits, null, 2)}\n`);
    return ExitCode.ok;
  }
  if (hits.length === 0) {
    ctx.stdout.write(`No messages match '${query}'.\n`);
    return ExitCode.ok;
  }
  const sessions = new Map<string, SessionRecord>();
  for (const id of new Set(hits.map((hit) => hit.sessionId))) {
    const session = await store.getSession(id);
    if (session) sessions.set(id, session);
  }
  ctx.stdout.write(`${searchResults(hits, sessions).join('\n')}`);
  return ExitCode.ok;
};

const exportSession: Sub = async (store, [idArg], values, ctx) => {
  if (idArg === undefined) return usageFailure(ctx, 'sessions', "'export' needs a session id");
  const id = await resolveId(store, idArg, ctx);
  if (id === undefined) return ExitCode.failure;
  const text = values.jsonl
    ? await trajectoryOf(store, id)
    : `${JSON.stringify(await store.export(id), null, 2)}\n`;
  const output = stringOption(values, 'output');
  if (output === undefined) ctx.stdout.write(text);
  else {
    writeFileSync(output, text, { mode: 0o600 });
    ctx.stderr.write(`Exported session ${id} to ${output}\n`);
  }
  return ExitCode.ok;
};

const remove: Sub = async (store, [idArg], _values, ctx) => {
  if (idArg === undefined) return usageFailure(ctx, 'sessions', "'delete' needs a session id");
  const id = await resolveId(store, idArg, ctx);
  if (id === undefined) return ExitCode.failure;
  await store.deleteSession(id);
  ctx.stdout.write(`Deleted session ${id}.\n`);
  return ExitCode.ok;
};

const prune: Sub = async (store, _rest, values, ctx) => {
  const days = intOption(values, 'older-than', 0);
  if (days === undefined) return usageFailure(ctx, 'sessions', "'prune' needs --older-than <days>");
  const count = await store.prune(Date.now() - days * DAY_MS);
  ctx.stdout.write(
    `Pruned ${count} ended session${count === 1 ? '' : 's'} older than ${days} days.\n`,
  );
  return ExitCode.ok;
};

const SUBCOMMANDS: Readonly<Record<string, Sub>> = {
  list,
  show,
  search,
  export: exportSession,
  delete: remove,
  prune,
};

/**
 * The session as trajectory JSON Lines: the SQLite store's own export (with the tool schemas it
 * keeps), else built from the stored prompt and rows.
 */
async function trajectoryOf(store: SessionStore, id: string): Promise<string> {
  if ('exportTrajectoryJsonl' in store && typeof store.exportTrajectoryJsonl === 'function') {
    return ((await store.exportTrajectoryJsonl(id)) as string | undefined) ?? '';
  }
  const session = await store.getSession(id);
  if (!session) return '';
  const hash = session.systemPromptHash;
  return trajectoryJsonl({
    sessionId: id,
    systemPrompt: hash ? await store.getSystemPrompt(hash) : undefined,
    toolSchemas: undefined,
    messages: await store.getMessages(id, { includeInactive: true }),
  });
}

/** The store `storage:` selects, or undefined (SQLite without a state.db: nothing to show). */
async function openStore(ctx: CommandContext): Promise<SessionStore | undefined> {
  const { loadHermesConfig, openSessionStoreFor, usesPostgres } = await import('@hermes/runtime');
  const config = await loadHermesConfig({ hermesHome: ctx.hermesHome, env: ctx.env });
  if (usesPostgres(config)) return openSessionStoreFor(config, 'hermes-sessions');
  if (!existsSync(defaultStatePath(ctx.hermesHome))) return undefined;
  return openSessionStore({ hermesHome: ctx.hermesHome });
}

/** What a subcommand says when there is no database at all. */
function withoutDatabase(sub: string, values: Args, ctx: CommandContext): number {
  if (sub === 'list' || sub === 'search') {
    ctx.stdout.write(values.json ? '[]\n' : 'No sessions yet.\n');
    return ExitCode.ok;
  }
  if (sub === 'prune') {
    ctx.stdout.write('Pruned 0 ended sessions.\n');
    return ExitCode.ok;
  }
  ctx.stderr.write(
    `hermes sessions: no sessions yet (${defaultStatePath(ctx.hermesHome)} does not exist)\n`,
  );
  return ExitCode.failure;
}

/** Runs `hermes sessions`; resolves to the exit code. */
export function run(args: readonly string[], ctx: CommandContext): Promise<number> {
  return withUsage(ctx, 'sessions', async () => {
    const { values, positionals } = parseCommandArgs(args, OPTIONS);
    const [sub = 'list', ...rest] = positionals;
    if (values.help || sub === 'help') {
      ctx.stdout.write(USAGE);
      return ExitCode.ok;
    }
    const handler = SUBCOMMANDS[sub];
    if (!handler) return usageFailure(ctx, 'sessions', `unknown subcommand '${sub}'`);
    intOption(values, 'limit');
    if (sub === 'prune' && intOption(values, 'older-than', 0) === undefined) {
      return usageFailure(ctx, 'sessions', "'prune' needs --older-than <days>");
    }
    let store: SessionStore | undefined;
    try {
      store = await openStore(ctx);
      if (!store) return withoutDatabase(sub, values, ctx);
    } catch (error) {
      if (!isHermesError(error)) throw error;
      ctx.stderr.write(`hermes sessions: ${error.message}\n`);
      return ExitCode.failure;
    }
    try {
      return await handler(store, rest, values, ctx);
    } finally {
      await store.close();
    }
  });
}
