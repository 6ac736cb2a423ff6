/**
 * What of a reply still streaming may be shown. A secret arrives in pieces (`sk-pro`, `j-Abc…`);
 * the redactor recognizes it only once whole, so the unfinished last word is held back while it
 * could be the start of one.
 */

/** Words that start a credential on their own. */
const SECRET_START =
  /^(?:sk-|sk_|pk_|rk_|gh[pousr]_|github_pat_|glpat-|gsk_|xai-|hf_|xox|AKIA|ASIA|AIza|eyJ|-----BEGIN)/;

/** Words that announce a credential as the next word. */
const SECRET_LABEL = /^(?:bearer|basic|token|digest)$/i;

/** A word that may be a secret prefix, a URL, an assignment or a label, unfinished. */
function risky(word: string, previous: string): boolean {
  if (word.length === 0) return false;
  if (SECRET_LABEL.test(previous)) return true;
  if (/[=:@/]/.test(word)) return true;
  // A short word may grow into any prefix ("s" → "sk-…"), so hold it back while it still could.
  return SECRET_START.test(word) || isPrefixOfSecretStart(word);
}

function isPrefixOfSecretStart(word: string): boolean {
  if (word.length > 10) return false;
  const starts = [
    'sk-',
    'sk_',
    'gh',
    'github_pat_',
    'glpat-',
    'gsk_',
    'xai-',
    'hf_',
    'xox',
    'AKIA',
    'ASIA',
    'AIza',
    'eyJ',
    '-----BEGIN',
  ];
  return starts.some((start) => start.startsWith(word));
}

/** Index of the last whitespace in `text` before `end`, or -1; scans back only over one word. */
function lastSpace(text: string, end: number): number {
  for (let i = end - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 13) return i;
  }
  return -1;
}

/**
 * The part of `buffer` (a reply still arriving) that is safe to show: all of it, unless the
 * last, unfinished word could still grow into a secret (a key prefix, an assignment, a URL, the
 * word after `Bearer`), in which case it is held back until the next delta completes it.
 */
export function showableStreamingText(buffer: string): string {
  const space = lastSpace(buffer, buffer.length);
  const word = buffer.slice(space + 1);
  const previousSpace = space <= 0 ? -1 : lastSpace(buffer, space);
  const previous = space <= 0 ? '' : buffer.slice(previousSpace + 1, space);
  return risky(word, previous) ? buffer.slice(0, space + 1) : buffer;
}
