/**
 * `hermes auth list|add|remove|reset`: the credential pools a user manages. Keys added here live
 * in `HERMES_HOME/auth.json` (0600) and join the provider's pool after the environment's keys;
 * health (cooldowns, dead keys, request counts) lives in `auth/credential-pool.json`, by key
 * fingerprint. No key is ever printed: lists show `sk-…abcd`.
 */
import { ExitCode } from '@hermes/config';
import { isHermesError } from '@hermes/protocol';
import type { CommandContext } from '../command-context.js';
import { parseCommandArgs, stringOption, usageFailure, withUsage } from '../config/command-args.js';
import { addKey } from './auth/add.js';
import { listKeys } from './auth/list.js';
import { removeKey, resetKeys } from './auth/remove.js';

const USAGE = `Usage: hermes auth <subcommand>

  list [provider]                  every key per provider: masked, source, state
                                   (ok, cooling 4m12s, dead), requests, last error
  add <provider> [--label L]       store a key in auth.json (asked without echo; read
                                   from stdin when it is not a terminal)
  remove <provider> <label|index>  remove a key stored with 'add' (index as in 'list')
  reset [provider]                 clear cooldowns and dead marks; the keys are kept

Keys from the environment and .env come first in each pool, then auth.json's.
How a pool picks a key: credential_pool.<provider>.strategy in config.yaml
(fill_first, round_robin, random, least_used).
`;

/** Runs `hermes auth`; resolves to the exit code. */
export function run(args: readonly string[], ctx: CommandContext): Promise<number> {
  return withUsage(ctx, 'auth', async () => {
    const { values, positionals } = parseCommandArgs(args, {
      help: { type: 'boolean', short: 'h' },
      label: { type: 'string' },
    });
    const [sub = 'list', first, second, ...extra] = positionals;
    if (values.help || sub === 'help') {
      ctx.stdout.write(USAGE);
      return ExitCode.ok;
    }
    try {
      switch (sub) {
        case 'list':
          return second === undefined
            ? listKeys(first, ctx)
            : usageFailure(ctx, 'auth', "'list' takes at most one provider");
        case 'add':
          if (first === undefined || second !== undefined) {
            return usageFailure(ctx, 'auth', "'add' needs one provider, e.g. add openai");
          }
          return await addKey(first, stringOption(values, 'label'), ctx);
        case 'remove':
          if (first === undefined || second === undefined || extra.length > 0) {
            return usageFailure(ctx, 'auth', "'remove' needs a provider and a label or index");
          }
          return removeKey(first, second, ctx);
        case 'reset':
          return second === undefined
            ? resetKeys(first, ctx)
            : usageFailure(ctx, 'auth', "'reset' takes at most one provider");
        default:
          return usageFailure(ctx, 'auth', `unknown subcommand '${sub}'`);
      }
    } catch (error) {
      if (!isHermesError(error)) throw error;
      ctx.stderr.write(`hermes auth: ${error.message}\n`);
      return ExitCode.failure;
    }
  });
}
