/** Splitting a long reply into messages a platform accepts. */

/** Measures a text the way a platform counts its length limit. */
export type MeasureText = (text: string) => number;

/** UTF-16 code units, JavaScript's `length`: what Telegram counts, and never less than code points. */
export const measureCodeUnits: MeasureText = (text) => text.length;

/**
 * Splits `text` into chunks that each measure at most `maxLength`, preferring, in order, a
 * paragraph break, a line break, then a space or tab, in the second half of the room available;
 * only a text with none of those is cut mid-word, and never inside a surrogate pair. The
 * whitespace at a split point is dropped and chunk ends are trimmed; nothing else is lost.
 * A text that already fits is returned unchanged; a blank text gives no chunks.
 *
 * `measure` must grow with the text (a longer prefix never measures less). The one exception to
 * the limit is a `maxLength` smaller than a single character, which yields that character alone.
 *
 * @throws RangeError when `maxLength` is not a positive number.
 */
export function splitText(
  text: string,
  maxLength: number,
  measure: MeasureText = measureCodeUnits,
): string[] {
  if (!(maxLength >= 1)) {
    throw new RangeError(`maxLength must be a positive number, got ${maxLength}`);
  }
  if (text.trim().length === 0) return [];
  if (measure(text) <= maxLength) return [text];
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > 0) {
    if (measure(rest) <= maxLength) {
      pushChunk(chunks, rest);
      break;
    }
    const room = fittingPrefixLength(rest, maxLength, measure);
    const { end, resume } = chooseCut(rest, room);
    pushChunk(chunks, rest.slice(0, end));
    rest = rest.slice(resume);
  }
  return chunks;
}

function pushChunk(chunks: string[], chunk: string): void {
  const trimmed = chunk.trimEnd();
  if (trimmed.trim().length > 0) chunks.push(trimmed);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The most code units of `text` (which does not fit) that fit, never ending mid-pair, at least 1 code point. */
function fittingPrefixLength(text: string, maxLength: number, measure: MeasureText): number {
  let fits: number;
  if (measure === measureCodeUnits) {
    fits = Math.min(Math.floor(maxLength), text.length - 1);
  } else {
    let low = 0;
    let high = text.length - 1;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (measure(text.slice(0, mid)) <= maxLength) low = mid;
      else high = mid - 1;
    }
    fits = low;
  }
  if (fits > 0 && isHighSurrogate(text.charCodeAt(fits - 1))) fits -= 1;
  if (fits === 0) fits = isHighSurrogate(text.charCodeAt(0)) ? 2 : 1;
  return fits;
}

/** Where to end this chunk (`end`) and where the next one starts (`resume`). */
function chooseCut(text: string, room: number): { end: number; resume: number } {
  const earliest = Math.max(1, Math.floor(room / 2));
  const paragraph = text.lastIndexOf('\n\n', room);
  if (paragraph >= earliest) {
    let resume = paragraph + 2;
    while (text[resume] === '\n') resume += 1;
    return { end: paragraph, resume };
  }
  const line = text.lastIndexOf('\n', room);
  if (line >= earliest) return { end: line, resume: line + 1 };
  for (let index = room; index >= earliest; index -= 1) {
    const char = text[index];
    if (char === ' ' || char === '\t') return { end: index, resume: index + 1 };
  }
  return { end: room, resume: room };
}
