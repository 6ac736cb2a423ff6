/**
 * The structure the shell parser produces: a script is a flat list of simple commands, each with
 * its words, leading assignments and redirections. Subshells and brace groups are flattened into
 * the list; command and process substitutions hang off the word that contains them.
 */

/** A `$(…)`, backtick or `<(…)` / `>(…)` substitution inside a word. */
export interface Substitution {
  /** `command` for `$(…)` and backticks; `process` for `<(…)` and `>(…)`. */
  readonly kind: 'command' | 'process';
  readonly script: Script;
}

/** One shell word. */
export interface Word {
  /** The source text of the word, as written. */
  readonly raw: string;
  /**
   * The word as the shell would see it for detection: quotes removed, backslash escapes and
   * `$'…'` decoded, line continuations dropped. Parameter expansions and substitutions stay as
   * their source text (`$HOME`, `$(curl …)`).
   */
  readonly value: string;
  /** Whether any part of the word was quoted or escaped. */
  readonly quoted: boolean;
  /** Whether the word contains a parameter expansion or a substitution. */
  readonly dynamic: boolean;
  /** Substitutions inside the word, parsed. */
  readonly subs: readonly Substitution[];
}

/** A here-document attached to a `<<` redirection. */
export interface HereDoc {
  readonly body: string;
  /** False when the delimiter was quoted: the body is then literal text. */
  readonly expand: boolean;
  /** Substitutions found in an expanding body; the shell runs them even for `cat <<EOF`. */
  readonly subs: readonly Substitution[];
}

/** One redirection: `>`, `>>`, `<`, `<<`, `<<<`, `&>`, `2>&1`, … */
export interface Redirect {
  /** The operator without its file-descriptor number, e.g. `>`, `>>`, `<<<`, `>&`. */
  readonly op: string;
  /** The file-descriptor number written before the operator (`2` in `2>err`), when there is one. */
  readonly fd?: number;
  readonly target: Word | undefined;
  readonly heredoc?: HereDoc;
}

/** One simple command. */
export interface SimpleCommand {
  readonly words: readonly Word[];
  /** `NAME=value` words before the command name. */
  readonly assigns: readonly Word[];
  readonly redirects: readonly Redirect[];
  /** Commands joined by `|` share a pipeline id. */
  readonly pipeline: number;
  /** Position inside the pipeline, 0 for the first. */
  readonly pipeIndex: number;
  /** Whether the pipeline ends with this command (false when it goes on after a subshell). */
  readonly endsPipeline: boolean;
  /**
   * Where the command's standard input comes from when that is outside its own pipeline: a link
   * the parser announced to its sink (`CommandSink.link`) — the pipe into the group the command
   * is in (`… | (sh)`), or the output of the group before it (`(echo a; echo b) | sh`).
   */
  readonly stdinLink?: number | undefined;
}

/** A link announced while a script was collected (see `CommandSink.link`). */
export interface LinkNotice {
  /** How many of the script's commands came before it. */
  readonly at: number;
  readonly link: number;
  readonly pipeline: number;
  readonly to: number | undefined;
}

/** A parsed script. */
export interface Script {
  readonly source: string;
  readonly commands: readonly SimpleCommand[];
  /** Set when nesting exceeded the parser's depth limit; the rest was not analysed. */
  readonly tooDeep: boolean;
  /** The links announced among its commands (groups piped into or out of), in order. */
  readonly links?: readonly LinkNotice[] | undefined;
}

/**
 * A script as the parser builds it: with one more slot, where the analyser keeps what it learnt
 * about the script's commands (see `rules/script-facts.ts`), so no lookup table is needed.
 */
export interface MemoScript extends Script {
  memo: unknown;
}

/** A new {@link Script} with an empty memo slot (every parsed script has the same shape). */
export function newScript(
  source: string,
  commands: readonly SimpleCommand[],
  tooDeep: boolean,
  links?: readonly LinkNotice[],
): Script {
  const script: MemoScript = { source, commands, tooDeep, links, memo: undefined };
  return script;
}
