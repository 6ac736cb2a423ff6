/**
 * What text search sees of a message, computed in JavaScript on write (a generated column could
 * not parse the JSON parts safely): the same text the SQLite FTS tables index.
 */
import { z } from 'zod';

/**
 * Indexed text is cut to this many characters: a tsvector holds at most 1 MiB, and a tool's
 * multi-megabyte output would make the insert fail. The full content is still stored.
 */
export const MAX_SEARCH_CHARS = 200_000;

const PartsSchema = z.array(z.looseObject({ type: z.unknown(), text: z.unknown().optional() }));
const ToolCallsSchema = z.array(
  z.looseObject({ function: z.looseObject({ arguments: z.unknown().optional() }).optional() }),
);

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function clip(text: string): string {
  // NUL would be escaped anyway, but as a separator it reads better as a space.
  const flat = text.replaceAll('\u0000', ' ');
  return flat.length > MAX_SEARCH_CHARS ? flat.slice(0, MAX_SEARCH_CHARS) : flat;
}

/** The message text (string content, or the `text` parts joined by spaces) and the tool name. */
export function searchText(
  content: string | null,
  isJson: boolean,
  toolName: string | null,
): string {
  let body = content ?? '';
  if (isJson && content !== null) {
    const parts = PartsSchema.safeParse(parse(content));
    body = parts.success
      ? parts.data
          .filter((p) => p.type === 'text' && typeof p.text === 'string')
          .map((p) => p.text as string)
          .join(' ')
      : '';
  }
  return clip(toolName === null ? body : `${body} ${toolName}`);
}

/** The `function.arguments` strings of a `tool_calls` JSON array, joined by spaces. */
export function searchArgs(toolCalls: string | null): string {
  if (toolCalls === null) return '';
  const calls = ToolCallsSchema.safeParse(parse(toolCalls));
  if (!calls.success) return '';
  return clip(
    calls.data
      .map((c) => c.function?.arguments)
      .filter((a): a is string => typeof a === 'string')
      .join(' '),
  );
}
