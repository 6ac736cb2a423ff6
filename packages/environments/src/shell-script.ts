/** The POSIX `sh` wrapper every backend runs a command in. */

/** Quotes `text` as one POSIX shell word. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Throws a clear error unless every key of `env` is a valid shell variable name. */
export function assertEnvNames(env: Readonly<Record<string, string>> | undefined): void {
  for (const name of Object.keys(env ?? {})) {
    if (!ENV_NAME.test(name)) {
      throw new TypeError(
        `env name ${JSON.stringify(name)} is not a valid shell variable name: use letters, digits and _ only`,
      );
    }
  }
}

/** What {@link buildScript} wraps. */
export interface ScriptParts {
  readonly command: string;
  /** Directory to start in; a missing one ends the script with a clear message and status 1. */
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** Frames the control records (see `MarkerFilter`). */
  readonly marker: string;
  /**
   * Report the final working directory (`C` record, so `cd` persists into the next command) and
   * the exit status (`E` record, so a child that keeps the pipes open cannot hide the exit).
   */
  readonly reportCwd: boolean;
}

/**
 * A script for `sh -c` that reports its pid (`P` record, the process group on remote hosts),
 * enters `cwd`, exports `env`, runs `command` through `eval` (so a syntax error is an ordinary
 * failure) and, on any exit, reports the working directory and status (`C`, `E`) and keeps it.
 */
export function buildScript(parts: ScriptParts): string {
  assertEnvNames(parts.env);
  const m = parts.marker;
  const dir = shellQuote(parts.cwd);
  const lines = [
    `printf '%sP%s%s' '${m}' "$$" '${m}'`,
    `cd -- ${dir} 2>/dev/null || { printf 'hermes: cannot run in %s: no such directory; pass an existing cwd\\n' ${dir} >&2; exit 1; }`,
  ];
  for (const [name, value] of Object.entries(parts.env ?? {})) {
    lines.push(`export ${name}=${shellQuote(value)}`);
  }
  if (parts.reportCwd) {
    lines.push(
      `trap 'hermes_status=$?; printf "%sC%s%s%sE%s%s" "${m}" "$PWD" "${m}" "${m}" "$hermes_status" "${m}"; exit $hermes_status' EXIT`,
    );
  }
  lines.push(`eval ${shellQuote(parts.command)}`);
  return lines.join('\n');
}
