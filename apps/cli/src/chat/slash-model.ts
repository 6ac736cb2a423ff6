/**
 * `/model` in the REPL: without an argument, the current model and the provider's models (the
 * same list and code as `hermes model`); with one, switches from the next message on. The list is
 * fetched once per chat run and cached, and tab completion after `/model ` offers its ids.
 */
import { catalogTarget, loadModelCatalog, type ModelCatalog } from '../commands/model/catalog.js';
import { catalogLines, inCatalog } from '../commands/model/render.js';
import type { ChatSession } from './chat-session.js';
import type { Completer } from './line-input.js';
import type { Repl } from './repl.js';

/** The list of each chat run, fetched on first use; settled lists stay for the whole run. */
const catalogs = new WeakMap<ChatSession, Promise<ModelCatalog | undefined>>();

/**
 * The provider's models for `session`'s configuration: its own listing, else the built-in table.
 * Resolves to undefined when no provider is configured at all.
 */
export function sessionCatalog(session: ChatSession): Promise<ModelCatalog | undefined> {
  let catalog = catalogs.get(session);
  if (!catalog) {
    const { config, env } = session.setup;
    const target = catalogTarget(config, session.agent.model);
    catalog = target
      ? loadModelCatalog(target, config.env ?? env ?? {})
      : Promise.resolve(undefined);
    catalogs.set(session, catalog);
  }
  return catalog;
}

/** `/model`: shows the model and the list; `/model <name>` switches from the next turn on. */
export async function modelCommand(repl: Repl, args: string): Promise<undefined> {
  const agent = repl.session.agent;
  if (args) {
    agent.switchModel(args);
    repl.say(`Model switched to ${args} (from the next message).`);
    // Only a list already fetched is consulted: switching never waits for the network.
    const cached = catalogs.get(repl.session);
    const catalog = cached ? await cached : undefined;
    if (catalog && catalog.models.length > 0 && !inCatalog(catalog, args)) {
      repl.say(repl.options.style.yellow(`(${args} is not among the listed models.)`));
    }
    return undefined;
  }
  repl.say(`Model: ${agent.model}`);
  const catalog = await sessionCatalog(repl.session);
  if (catalog) repl.say(catalogLines(catalog, agent.model).join('\n'));
  repl.say(repl.options.style.dim('Switch with /model <name> (Tab completes).'));
  return undefined;
}

const MODEL_ARGUMENT = /^\/model\s+(\S*)$/;

/**
 * Completes the model name after `/model `, from the run's cached list (fetched on the first
 * Tab if `/model` has not listed it yet). Other lines get no completions.
 */
export function modelCompleter(session: () => ChatSession | undefined): Completer {
  return (line, callback) => {
    const match = MODEL_ARGUMENT.exec(line);
    const current = session();
    if (!match || !current) {
      callback(null, [[], line]);
      return;
    }
    const prefix = match[1] ?? '';
    sessionCatalog(current).then(
      (catalog) => {
        const ids = (catalog?.models ?? []).map((model) => model.id);
        callback(null, [ids.filter((id) => id.startsWith(prefix)), prefix]);
      },
      () => callback(null, [[], prefix]),
    );
  };
}
