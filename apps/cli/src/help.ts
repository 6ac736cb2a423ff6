import { COMMANDS } from './command-table.js';

/** What the help's footer says about the data home. */
export interface HomeFacts {
  readonly path: string;
  readonly fromEnv: boolean;
  readonly exists: boolean;
}

/** The text of `hermes --help`, ending with a newline. */
export function renderHelp(version: string, home: HomeFacts): string {
  const width = Math.max(...COMMANDS.map((c) => c.usage.length)) + 2;
  const commands = COMMANDS.map((c) => `  ${c.usage.padEnd(width)}${c.summary}`);
  const where = [
    home.fromEnv ? 'from HERMES_HOME' : 'default',
    home.exists ? '' : 'not created yet',
  ]
    .filter(Boolean)
    .join('; ');
  return [
    `hermes ${version} - the Hermes TS agent on the command line`,
    '',
    'Usage:',
    '  hermes [global options] [command] [command options]',
    '',
    'Commands:',
    ...commands,
    `  ${'<plugin command>'.padEnd(width)}a command an enabled plugin adds (\`hermes plugins list\``,
    `  ${''.padEnd(width)}shows each plugin's commands under REGISTERED)`,
    '',
    'Global options:',
    '  -p, --profile <name>  use the named profile (HERMES_HOME/profiles/<name>)',
    '  -h, --help            show this help and exit',
    '  -V, --version         print the version and exit',
    '',
    'Environment:',
    '  HERMES_HOME           the data home: config.yaml, .env, state.db, SOUL.md, memories/,',
    '                        skills/, cron/, logs/ (default: ~/.hermes)',
    '',
    `Data home: ${home.path} (${where})`,
    '',
  ].join('\n');
}
