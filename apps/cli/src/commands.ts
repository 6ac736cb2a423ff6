/**
 * The commands `hermes` will have. None runs yet: each arrives with a later issue, which replaces
 * its entry here with a real handler.
 */

/** One line of the command list in `hermes --help`. */
export interface PlannedCommand {
  /** The word typed on the command line. */
  readonly name: string;
  /** How it is written in the help, with its arguments. */
  readonly usage: string;
  /** What it will do. */
  readonly summary: string;
}

/** Commands listed in the help, in display order. `chat` is the default command. */
export const PLANNED_COMMANDS: readonly PlannedCommand[] = [
  {
    name: 'chat',
    usage: 'chat',
    summary: 'talk with the agent in an interactive session (default)',
  },
  { name: 'chat', usage: 'chat -q <query>', summary: 'ask one question, print the answer, exit' },
  { name: 'sessions', usage: 'sessions', summary: 'list, search, export and prune past sessions' },
  { name: 'memory', usage: 'memory', summary: 'show and edit MEMORY.md and USER.md' },
  { name: 'skills', usage: 'skills', summary: 'list, install and manage skills' },
  { name: 'cron', usage: 'cron', summary: 'manage scheduled jobs' },
  { name: 'config', usage: 'config', summary: 'show and change config.yaml' },
  { name: 'setup', usage: 'setup', summary: 'first-run setup: model provider, keys, profile' },
  { name: 'doctor', usage: 'doctor', summary: 'check the installation, configuration and keys' },
  { name: 'gateway', usage: 'gateway', summary: 'run the messaging gateway (see hermes-gateway)' },
];

/** The distinct command names. */
export const COMMAND_NAMES: readonly string[] = [...new Set(PLANNED_COMMANDS.map((c) => c.name))];

/** Commands that already run, dispatched by `main` before the planned ones. */
export const AVAILABLE_COMMANDS: readonly PlannedCommand[] = [
  {
    name: 'approval',
    usage: 'approval check [--json] -- <cmd>',
    summary: 'show how the command guard rules on a command',
  },
];

/** The known command closest to `word` (at most two edits away), for a "did you mean" hint. */
export function closestCommand(word: string): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const name of [...COMMAND_NAMES, ...AVAILABLE_COMMANDS.map((c) => c.name)]) {
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
