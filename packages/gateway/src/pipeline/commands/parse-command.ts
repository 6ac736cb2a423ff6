/** Recognizing a slash command in a message's text. */

/** A slash command: its lower-case name and the rest of the text. */
export interface ParsedCommand {
  readonly name: string;
  readonly args: string;
}

/**
 * `/name args` → `{ name, args }`. The name is lower-cased and a platform's `@botname` suffix
 * (`/status@hermes_bot`) is dropped. Text that does not start with `/` followed by a letter is
 * not a command (a path like `/etc/hosts` has a second slash and is not one either).
 */
export function parseCommand(text: string): ParsedCommand | undefined {
  const match = /^\/([A-Za-z][\w-]*)(?:@[\w.-]+)?(?=\s|$)\s*([\s\S]*)$/.exec(text.trim());
  if (!match) return undefined;
  return { name: (match[1] ?? '').toLowerCase(), args: (match[2] ?? '').trim() };
}
