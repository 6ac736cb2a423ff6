/** ANSI styling for the chat display, switched off for pipes and `NO_COLOR`. */

/** Text styles the renderer uses; each returns its input unchanged when colour is off. */
export interface Style {
  readonly enabled: boolean;
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  /** The command in an approval prompt: bold yellow. */
  highlight(text: string): string;
}

function wrap(enabled: boolean, open: string, close: string): (text: string) => string {
  return enabled ? (text) => `\u001b[${open}m${text}\u001b[${close}m` : (text) => text;
}

/** A style; colour only when `enabled`. */
export function createStyle(enabled: boolean): Style {
  const bold = wrap(enabled, '1', '22');
  const yellow = wrap(enabled, '33', '39');
  return {
    enabled,
    dim: wrap(enabled, '2', '22'),
    bold,
    red: wrap(enabled, '31', '39'),
    green: wrap(enabled, '32', '39'),
    yellow,
    cyan: wrap(enabled, '36', '39'),
    highlight: (text) => bold(yellow(text)),
  };
}

/** Whether a stream is a terminal (streams without `isTTY` are pipes or in-memory sinks). */
export function isTerminal(stream: unknown): boolean {
  return (stream as { isTTY?: boolean } | undefined)?.isTTY === true;
}

/** Colour on for a terminal unless `NO_COLOR` is set (https://no-color.org). */
export function colorWanted(
  stream: unknown,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  return isTerminal(stream) && !env.NO_COLOR && env.TERM !== 'dumb';
}
