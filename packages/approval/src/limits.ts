/**
 * The parser limits: commands too large to analyse are refused rather than half-checked, so no
 * unchecked tail can run. The numbers are Hermes's.
 */

/** The three limits. */
export const PARSER_LIMITS = {
  /** Longest command analysed at all. */
  maxChars: 128_000,
  /** Longest command with no separator (`;`, `&`, `|`, newline) in it. */
  maxCharsWithoutSeparator: 4_096,
  /** Most separator-delimited segments. */
  maxSegments: 25_000,
} as const;

/**
 * Ours, beyond Hermes's three: how many simple commands one line may run before the analysis
 * stops and the line is refused (`commands`, counting substitutions, carried code and `find
 * -exec` payloads), and how many of them may need the rules (`judged`: all but the inert ones,
 * which cost several times less). They bound the work on one line the way the segment limit
 * bounds the splitting; no command a person or an agent writes comes near them.
 */
export const COMMAND_LIMITS = {
  commands: 10_000,
  judged: 2_500,
} as const;

function isSeparator(code: number): boolean {
  return code === 59 || code === 38 || code === 124 || code === 10;
}

/** Why `command` exceeds a parser limit, or `undefined` when it does not. Linear. */
export function parserLimitExceeded(command: string): string | undefined {
  if (command.length > PARSER_LIMITS.maxChars) {
    return `it is ${command.length} characters long (the limit is ${PARSER_LIMITS.maxChars})`;
  }
  let segments = 1;
  let previousWasSeparator = false;
  for (let i = 0; i < command.length; i += 1) {
    const separator = isSeparator(command.charCodeAt(i));
    if (separator && !previousWasSeparator) segments += 1;
    previousWasSeparator = separator;
  }
  if (segments === 1 && command.length > PARSER_LIMITS.maxCharsWithoutSeparator) {
    return `it is ${command.length} characters long with no command separator (the limit is ${PARSER_LIMITS.maxCharsWithoutSeparator})`;
  }
  if (segments > PARSER_LIMITS.maxSegments) {
    return `it has ${segments} segments (the limit is ${PARSER_LIMITS.maxSegments})`;
  }
  return undefined;
}
