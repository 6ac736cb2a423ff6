/** Masks secrets in a command before it goes into an event or a log line. */

const ASSIGNMENT = /\b([A-Za-z_][A-Za-z0-9_]{0,63})=("[^"]*"|'[^']*'|\S+)/g;
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|AUTH|CREDENTIAL/i;
const BEARER = /\b(Bearer|Basic|token)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
const KNOWN_TOKENS =
  /\b(?:sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|glpat-[A-Za-z0-9_-]{20,})/g;
const URL_PASSWORD = /(\/\/[^:/@\s]{1,256}:)[^@\s/]{1,256}@/g;
const FLAG_SECRET = /(--?(?:password|passwd|token|api-key|secret)[= ])\S+/gi;

/**
 * Returns `command` with secret values replaced by `***`: `*KEY=`/`*TOKEN=`/`*PASSWORD=`
 * assignments, bearer tokens, well-known token shapes, URL passwords and `--password` flags.
 * Every pattern is bounded, so the work stays linear.
 */
export function redactSecrets(command: string): string {
  return command
    .replace(ASSIGNMENT, (all, name: string) => (SECRET_NAME.test(name) ? `${name}=***` : all))
    .replace(BEARER, '$1 ***')
    .replace(KNOWN_TOKENS, '***')
    .replace(URL_PASSWORD, '$1***@')
    .replace(FLAG_SECRET, '$1***');
}
