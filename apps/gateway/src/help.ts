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
    'Commands:',
    '  run        serve every enabled adapter in the foreground until SIGTERM/Ctrl-C (default)',
    '  start      the same as run',
    '',
    'Options:',
    '  --config <path>       the config file (default $HERMES_HOME/config.yaml; .env stays in the home)',
    '  -p, --profile <name>  serve this profile (HERMES_HOME/profiles/<name>) instead of the default',
    '  -h, --help            show this help and exit',
    '  -V, --version         print the version and exit',
    '',
    'Adapters (platforms.<name>.enabled: true in config.yaml):',
    '  api_server  an OpenAI-compatible API server (chat completions, responses, runs, /health)',
    '  webhook     signed webhooks (POST /webhooks/<route>) that run a prompt',
    '  Platform adapters (Telegram, Discord, Slack, ...) arrive as plugins; the cron clock later.',
    '',
    'Environment:',
    '  HERMES_HOME           the data home holding config.yaml, .env, state.db and the rest',
    '                        (default: ~/.hermes)',
    '  API_SERVER_ENABLED    true to serve the API server; API_SERVER_KEY its bearer key (16+)',
    '  API_SERVER_HOST, API_SERVER_PORT, API_SERVER_MODEL_NAME, API_SERVER_CORS_ORIGINS',
    '',
    'Exit codes: 0 stopped by a signal after draining; 1 failed while running; 2 bad command',
    'line or a configuration it cannot run; 130/143 a second SIGINT/SIGTERM during the drain.',
    'Logs: $HERMES_HOME/logs/gateway.log (rotated at 5 MB, secrets masked)',
    '',
    `Data home: ${facts.home} (${homeNote})`,
    `Config:    ${facts.config} (${facts.configFromOption ? 'from --config' : 'default'})`,
    '',
  ].join('\n');
}
