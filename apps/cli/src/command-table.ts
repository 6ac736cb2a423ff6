/**
 * Every `hermes` command: its help line and a lazy loader, so `hermes --version` and `--help`
 * never load the agent, provider SDKs or SQLite.
 */
import type { CommandModule } from './command-context.js';

/** One command of the table. */
export interface CommandEntry {
  /** The word typed on the command line. */
  readonly name: string;
  /** How it is written in the help, with its arguments. */
  readonly usage: string;
  /** What it does. */
  readonly summary: string;
  /** Loads the implementation. */
  readonly load: () => Promise<CommandModule>;
}

/** Commands in help order. `chat` is the default command. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'chat',
    usage: 'chat [-q <query>]',
    summary: 'talk with the agent; -q asks one question and exits (default)',
    load: () => import('./commands/chat.js'),
  },
  {
    name: 'demo',
    usage: 'demo',
    summary: 'watch a scripted tool loop run for real, no API key needed',
    load: () => import('./commands/demo.js'),
  },
  {
    name: 'setup',
    usage: 'setup',
    summary: 'first-run setup: provider, model, key, connectivity test',
    load: () => import('./commands/setup.js'),
  },
  {
    name: 'model',
    usage: 'model [list|set <name>]',
    summary: "the provider's models with context length and price; switch the default",
    load: () => import('./commands/model.js'),
  },
  {
    name: 'config',
    usage: 'config show|get|set|unset|path|check',
    summary: 'show and change config.yaml',
    load: () => import('./commands/config.js'),
  },
  {
    name: 'auth',
    usage: 'auth list|add|remove|reset',
    summary: 'API keys per provider: masked list with health, add, remove, reset cooldowns',
    load: () => import('./commands/auth.js'),
  },
  {
    name: 'storage',
    usage: 'storage [status]|migrate|copy',
    summary: 'where sessions live (SQLite or PostgreSQL), migrate, copy SQLite to PostgreSQL',
    load: () => import('./commands/storage.js'),
  },
  {
    name: 'sessions',
    usage: 'sessions list|show|search|export|delete|prune',
    summary: 'past sessions',
    load: () => import('./commands/sessions.js'),
  },
  {
    name: 'memory',
    usage: 'memory show|edit',
    summary: 'MEMORY.md and USER.md',
    load: () => import('./commands/memory.js'),
  },
  {
    name: 'skills',
    usage: 'skills list|view|install <path>',
    summary: 'skills the agent can load',
    load: () => import('./commands/skills.js'),
  },
  {
    name: 'tools',
    usage: 'tools list',
    summary: 'tools and toolsets',
    load: () => import('./commands/tools.js'),
  },
  {
    name: 'plugins',
    usage: 'plugins list|enable|disable|install|remove',
    summary: 'plugins: what is installed and its state, turn on and off, install, remove',
    load: () => import('./commands/plugins.js'),
  },
  {
    name: 'mcp',
    usage: 'mcp list|add|remove|test <name>|serve',
    summary: 'MCP servers: their tools in chat as mcp_<server>_<tool>; serve Hermes over MCP',
    load: () => import('./commands/mcp.js'),
  },
  {
    name: 'approval',
    usage: 'approval check [--json] -- <cmd>',
    summary: 'how the command guard rules on a command',
    load: () => import('./commands/approval.js'),
  },
  {
    name: 'doctor',
    usage: 'doctor',
    summary: 'check the installation, configuration and keys',
    load: () => import('./commands/doctor.js'),
  },
  {
    name: 'logs',
    usage: 'logs [errors] [-n <lines>] [--follow]',
    summary: 'show agent.log or errors.log',
    load: () => import('./commands/logs.js'),
  },
  {
    name: 'cron',
    usage: 'cron list|create|edit|pause|resume|remove|run <id>|tick|runs <id>',
    summary: 'scheduled jobs: the gateway runs them every minute; run and tick run them here',
    load: () => import('./commands/cron.js'),
  },
  {
    name: 'gateway',
    usage: 'gateway run',
    summary: 'serve the messaging gateway and the OpenAI-compatible API (as hermes-gateway run)',
    load: () => import('./commands/gateway.js'),
  },
  {
    name: 'pairing',
    usage: 'pairing list|approve <platform> <code>|revoke <platform> <user-id>',
    summary: 'who may talk to the agent in a DM',
    load: () => import('./commands/pairing.js'),
  },
];

/** The command named `name`. */
export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((c) => c.name === name);
}

/** The known command closest to `word` (at most two edits away), for a "did you mean" hint. */
export function closestCommand(word: string): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const { name } of COMMANDS) {
    const distance = editDistance(word.toLowerCase(), name);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
