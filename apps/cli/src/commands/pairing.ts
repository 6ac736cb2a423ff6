/**
 * `hermes pairing list|approve|revoke`: the owner's side of DM pairing. A stranger who writes to
 * the bot in a DM gets a one-time code from the gateway; the owner approves it here, and that
 * platform's user id may talk to the agent from the next message on (the gateway reads the
 * files under `HERMES_HOME/pairing/` on every message, so no restart is needed).
 */
import { ExitCode } from '@hermes/config';
import { type PairingList, PairingStore } from '@hermes/gateway';
import type { CommandContext } from '../command-context.js';
import { parseCommandArgs, usageFailure, withUsage } from '../config/command-args.js';

const USAGE = `Usage: hermes pairing <subcommand>

  list [--json]                  codes waiting for approval and the approved users
  approve <platform> <code>      let the user who holds the code talk to the agent
  revoke <platform> <user-id>    take an approved user's access away

A code is valid for an hour; case and dashes do not matter (abcd-2345 = ABCD2345).
Approval is per platform: a Telegram user id says nothing about a Slack one.
`;

/** `42 (alice)` or `42`. */
function who(user: { readonly userId: string; readonly userName?: string | undefined }): string {
  return user.userName ? `${user.userId} (${user.userName})` : user.userId;
}

function minutesLeft(expiresAt: number, now: number): string {
  const minutes = Math.max(0, Math.ceil((expiresAt - now) / 60_000));
  return `expires in ${minutes} min`;
}

function renderList(list: PairingList, now: number): string {
  const lines: string[] = [];
  lines.push(list.pending.length === 0 ? 'No codes waiting.' : 'Waiting for approval:');
  for (const entry of list.pending) {
    lines.push(
      `  ${entry.platform}  ${entry.code}  ${who(entry)}  ${minutesLeft(entry.expiresAt, now)}`,
    );
  }
  lines.push(list.approved.length === 0 ? 'No approved users.' : 'Approved users:');
  for (const user of list.approved) {
    lines.push(
      `  ${user.platform}  ${who(user)}  since ${new Date(user.approvedAt).toISOString()}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

async function list(store: PairingStore, json: boolean, ctx: CommandContext): Promise<number> {
  const entries = await store.list();
  ctx.stdout.write(
    json ? `${JSON.stringify(entries, null, 2)}\n` : renderList(entries, Date.now()),
  );
  return ExitCode.ok;
}

async function approve(
  store: PairingStore,
  platform: string,
  code: string,
  ctx: CommandContext,
): Promise<number> {
  const user = await store.approve(platform, code);
  if (!user) {
    ctx.stderr.write(
      `hermes pairing: no code '${code}' is waiting on ${platform} (wrong, already used, or expired); ` +
        '`hermes pairing list` shows the waiting ones.\n',
    );
    return ExitCode.failure;
  }
  ctx.stdout.write(`Approved ${who(user)} on ${platform}; they can talk to the agent now.\n`);
  return ExitCode.ok;
}

async function revoke(
  store: PairingStore,
  platform: string,
  userId: string,
  ctx: CommandContext,
): Promise<number> {
  if (!(await store.revoke(platform, userId))) {
    ctx.stderr.write(
      `hermes pairing: ${userId} is not an approved user on ${platform}; ` +
        '`hermes pairing list` shows who is.\n',
    );
    return ExitCode.failure;
  }
  ctx.stdout.write(`Revoked ${userId} on ${platform}.\n`);
  return ExitCode.ok;
}

/** The positional words each subcommand takes, after the subcommand itself. */
const ARITY: Readonly<Record<string, readonly string[]>> = {
  list: [],
  approve: ['<platform>', '<code>'],
  revoke: ['<platform>', '<user-id>'],
};

/** Runs `hermes pairing`; resolves to the exit code. */
export function run(args: readonly string[], ctx: CommandContext): Promise<number> {
  return withUsage(ctx, 'pairing', async () => {
    const { values, positionals } = parseCommandArgs(args, {
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean' },
    });
    const [sub = 'list', ...rest] = positionals;
    if (values.help || sub === 'help') {
      ctx.stdout.write(USAGE);
      return ExitCode.ok;
    }
    const wanted = ARITY[sub];
    if (!wanted) return usageFailure(ctx, 'pairing', `unknown subcommand '${sub}'`);
    if (rest.length < wanted.length) {
      return usageFailure(ctx, 'pairing', `'${sub}' needs ${wanted.join(' ')}`);
    }
    if (rest.length > wanted.length) {
      return usageFailure(ctx, 'pairing', `unexpected argument '${rest[wanted.length]}'`);
    }
    const opened = await openPairing(ctx);
    const { store } = opened;
    const [platform = '', value = ''] = rest;
    try {
      if (sub === 'list') return await list(store, values.json === true, ctx);
      return sub === 'approve'
        ? await approve(store, platform, value, ctx)
        : await revoke(store, platform, value, ctx);
    } finally {
      await opened.close();
    }
  });
}

/**
 * The pairing state the gateways read: files under `HERMES_HOME/pairing/`, or the shared
 * PostgreSQL database when `storage:` selects it (several gateways, several machines).
 */
async function openPairing(
  ctx: CommandContext,
): Promise<{ store: PairingStore; close(): Promise<void> }> {
  const runtime = await import('@hermes/runtime');
  const shared =
    ctx.env[runtime.DATABASE_URL_ENV]?.trim() ||
    runtime.getConfigValue(ctx.hermesHome, ['storage']) != null;
  if (shared) {
    const config = await runtime.loadHermesConfig({ hermesHome: ctx.hermesHome, env: ctx.env });
    if (runtime.usesPostgres(config)) {
      const database = await runtime.connectPostgres(config, 'hermes-pairing');
      const { PostgresPairingData } = await import('@hermes/gateway/postgres');
      const data = new PostgresPairingData(database);
      return { store: new PairingStore(ctx.hermesHome, { data }), close: () => database.close() };
    }
  }
  return { store: new PairingStore(ctx.hermesHome), close: async () => {} };
}
