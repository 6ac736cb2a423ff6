/** What the help's footer reports. */
export interface HelpFacts {
  readonly home: string;
  readonly homeFromEnv: boolean;
  readonly homeExists: boolean;
  /** The config file the gateway would read, and whether `--config` chose it. */
  readonly config: string;
  readonly configFromOption: boolean;
}

/** The text of `hermes-gateway --help`, ending with a newline. */
export function renderHelp(version: string, facts: HelpFacts): string {
  const homeNote = [
    facts.homeFromEnv ? 'from HERMES_HOME' : 'default',
    facts.homeExists ? '' : 'not created yet',
  ]
    .filter(Boolean)
    .join('; ');
  return [
    `hermes-gateway ${version} - the long-running Hermes TS messaging gateway`,
    '',
    'Usage:',
    '  hermes-gateway [run|start] [options]',
    '',
    'Commands (the gateway runtime arrives in a later release; neither runs in this version):',
    '  run        run the gateway in the foreground until stopped (default)',
    '  start      the same as run',
    '',
    'Options:',
    '  --config <path>       read this config file instead of $HERMES_HOME/config.yaml',
    '  -p, --profile <name>  serve this profile instead of the default one',
    '  -h, --help            show this help and exit',
    '  -V, --version         print the version and exit',
    '',
    'Coming in later releases:',
    '  - the message pipeline: routing to profiles and sessions, delivery, the agent loop',
    '  - an OpenAI-compatible API server (chat completions) for other clients to talk to',
    '  - platform adapters (Telegram, Discord, Slack, ... as plugins) and webhooks',
    '  - the cron clock that runs scheduled jobs',
    '',
    'Environment:',
    '  HERMES_HOME           the data home holding config.yaml, .env, state.db and the rest',
    '                        (default: ~/.hermes)',
    '',
    `Data home: ${facts.home} (${homeNote})`,
    `Config:    ${facts.config} (${facts.configFromOption ? 'from --config' : 'default'})`,
    '',
  ].join('\n');
}
