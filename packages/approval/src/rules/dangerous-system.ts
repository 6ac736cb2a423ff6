/**
 * Dangerous-pattern rules about the system and shared state: SQL that destroys data, service,
 * firewall, account and kernel changes, forced kills, destructive git operations, and the agent's
 * self-protection (stopping the gateway or the agent, editing its own approval settings).
 */
import { mentionsAgent } from './carriers.js';
import { scriptFacts } from './script-facts.js';
import { type Finding, hit, type Site, type SiteRule, splitArgs } from './types.js';

const SQL_CLIENTS = new Set([
  'psql',
  'mysql',
  'mariadb',
  'sqlite3',
  'sqlite',
  'duckdb',
  'sqlcmd',
  'clickhouse-client',
  'cockroach',
  'pgcli',
  'mycli',
  'litecli',
  'bq',
  'snowsql',
  'trino',
]);
const SQL_DROP = /\bDROP\s+(?:TABLE|DATABASE|SCHEMA)\b/i;
const SQL_TRUNCATE = /\bTRUNCATE\s+(?:TABLE\s+)?[\w"`[]/i;
const SQL_DELETE = /\bDELETE\s+FROM\b/i;
const SQL_WHERE = /\bWHERE\b/i;

function sqlTexts(site: Site): string[] {
  // Each argument, and all of them joined: `echo DROP TABLE t | psql` spreads one statement.
  const texts = [...site.inv.args];
  if (site.inv.args.length > 1) texts.push(site.inv.args.join(' '));
  for (const redirect of site.inv.command.redirects) {
    if (redirect.heredoc) texts.push(redirect.heredoc.body);
    else if (redirect.op === '<<<' && redirect.target) texts.push(redirect.target.value);
  }
  // The SQL text comes from the commands just before the client (`echo … | psql`).
  for (const upstream of site.upstream) {
    for (const arg of upstream.args) texts.push(arg);
    if (upstream.args.length > 1) texts.push(upstream.args.join(' '));
    for (const redirect of upstream.command.redirects) {
      if (redirect.heredoc) texts.push(redirect.heredoc.body);
    }
  }
  return texts;
}

function sql(site: Site, out: Finding[]): void {
  let drop = false;
  let truncate = false;
  let deleteAll = false;
  for (const text of sqlTexts(site)) {
    drop ||= SQL_DROP.test(text);
    truncate ||= SQL_TRUNCATE.test(text);
    deleteAll ||= SQL_DELETE.test(text) && deletesEverything(text);
  }
  // One finding per kind, however many of the texts show it.
  if (drop) hit(site, out, 'sql_drop', 'SQL DROP TABLE/DATABASE');
  if (truncate) hit(site, out, 'sql_truncate', 'SQL TRUNCATE');
  if (deleteAll) hit(site, out, 'sql_delete_all', 'SQL DELETE without WHERE');
}

function deletesEverything(text: string): boolean {
  return text.split(';').some((part) => SQL_DELETE.test(part) && !SQL_WHERE.test(part));
}

const SYSTEMCTL_CHANGES = new Set([
  'stop',
  'disable',
  'mask',
  'kill',
  'restart',
  'isolate',
  'daemon-reexec',
  'try-restart',
  'reload-or-restart',
]);

function service(site: Site, out: Finding[]): void {
  const { name, args } = site.inv;
  const positionals = splitArgs(args).positionals;
  const verb = name === 'service' || name === 'rc-service' ? positionals[1] : positionals[0];
  const changes =
    (name === 'systemctl' && verb !== undefined && SYSTEMCTL_CHANGES.has(verb)) ||
    ((name === 'service' || name === 'rc-service') &&
      /^(?:stop|restart|disable)$/.test(verb ?? '')) ||
    (name === 'launchctl' && /^(?:unload|bootout|remove|disable|kill|stop)$/.test(verb ?? '')) ||
    (name === 'update-rc.d' && /^(?:remove|disable)$/.test(positionals[1] ?? '')) ||
    (name === 'chkconfig' && positionals[1] === 'off');
  if (!changes) return;
  if (mentionsAgent(args)) hit(site, out, 'self_termination', 'stopping the agent or its gateway');
  else hit(site, out, 'service_change', 'system service change');
}

function firewall(site: Site, out: Finding[]): void {
  const { name, args } = site.inv;
  const listing =
    /^(?:-[LSnvx]+|--list|--list-rules|--line-numbers|--numeric|--verbose|-t|filter|nat|mangle|raw)$/;
  const changes =
    (/^ip6?tables(?:-legacy|-nft)?$/.test(name) && !args.every((a) => listing.test(a))) ||
    (name === 'ufw' &&
      /^(?:disable|reset|delete|deny|allow|reject|limit|default)$/.test(args[0] ?? '')) ||
    (name === 'nft' && /^(?:flush|delete|add|insert|replace|-f)$/.test(args[0] ?? '')) ||
    (name === 'firewall-cmd' && args.some((a) => /^--(?:add|remove|set|panic|reload)/.test(a)));
  if (changes) hit(site, out, 'firewall_change', 'firewall change');
}

function account(site: Site, out: Finding[]): void {
  hit(site, out, 'account_change', 'user account or sudoers change');
}

function kernel(site: Site, out: Finding[]): void {
  const { name, args } = site.inv;
  if (name === 'sysctl' && !args.some((a) => a === '-w' || a.includes('='))) return;
  hit(site, out, 'kernel_change', 'kernel parameter or module change');
}

function crontab(site: Site, out: Finding[]): void {
  if (splitArgs(site.inv.args).short.has('r')) hit(site, out, 'crontab_remove', 'crontab -r');
}

const KILL_SIGNAL = /^(?:9|KILL|SIGKILL)$/i;

function forcedSignal(args: readonly string[]): boolean {
  return args.some((arg, i) => {
    if (/^-(?:9|KILL|SIGKILL)$/i.test(arg) || /^--signal=(?:9|KILL|SIGKILL)$/i.test(arg))
      return true;
    return (
      (arg === '-s' || arg === '-n' || arg === '--signal') && KILL_SIGNAL.test(args[i + 1] ?? '')
    );
  });
}

function targetsAgent(site: Site): boolean {
  if (mentionsAgent(site.inv.args)) return true;
  const inSubstitution = site.inv.argWords.some((w) =>
    w.subs.some((s) => scriptFacts(s.script).agentLookup),
  );
  return inSubstitution || site.upstreamHas('agentLookup');
}

function kill(site: Site, out: Finding[]): void {
  const { name, args } = site.inv;
  if (targetsAgent(site)) {
    hit(site, out, 'self_termination', 'killing the agent or its gateway');
    return;
  }
  if (name === 'killall' || name === 'killall5') hit(site, out, 'killall', 'killall');
  else if (forcedSignal(args)) {
    hit(site, out, name === 'pkill' ? 'pkill_force' : 'kill_force', `${name} -9 (force kill)`);
  }
}

function hermes(site: Site, out: Finding[]): void {
  const { args } = site.inv;
  const positionals = splitArgs(args).positionals;
  const sub = site.inv.name === 'hermes-gateway' ? 'gateway' : positionals[0];
  const verb = site.inv.name === 'hermes-gateway' ? positionals[0] : positionals[1];
  if (sub === 'gateway' && /^(?:stop|restart|uninstall|kill)$/.test(verb ?? '')) {
    hit(site, out, 'self_termination', 'stopping the agent or its gateway');
  }
  const key = positionals[2] ?? '';
  if (
    sub === 'config' &&
    /^(?:set|edit|unset)$/.test(verb ?? '') &&
    (verb === 'edit' || /^(?:approvals|command_allowlist)/.test(key))
  ) {
    hit(site, out, 'hermes_config_write', "editing the agent's own approval settings");
  }
}

const SYSTEM_RULE_LIST: ReadonlyArray<readonly [readonly string[], SiteRule]> = [
  [[...SQL_CLIENTS], sql],
  [['systemctl', 'service', 'rc-service', 'launchctl', 'update-rc.d', 'chkconfig'], service],
  [
    ['iptables', 'ip6tables', 'iptables-legacy', 'iptables-nft', 'ufw', 'nft', 'firewall-cmd'],
    firewall,
  ],
  [
    [
      'useradd',
      'userdel',
      'usermod',
      'passwd',
      'chpasswd',
      'visudo',
      'groupadd',
      'groupdel',
      'groupmod',
      'chsh',
      'chage',
      'vipw',
      'adduser',
      'deluser',
    ],
    account,
  ],
  [['sysctl', 'modprobe', 'rmmod', 'insmod'], kernel],
  [['crontab'], crontab],
  [['kill', 'pkill', 'killall', 'killall5'], kill],
  [['hermes', 'hermes-gateway'], hermes],
];

/** The system rules, by payload command name. */
export const SYSTEM_RULES: ReadonlyMap<string, SiteRule> = new Map(
  SYSTEM_RULE_LIST.flatMap(([names, rule]) =>
    names.map((name): [string, SiteRule] => [name, rule]),
  ),
);
