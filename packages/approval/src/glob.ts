/** Shell-style glob matching (`*`, `?`) for deny and allow rules, in O(text × pattern) time. */

/** True when `text` matches `pattern` in full; `*` matches any run, `?` any one character. */
export function globMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    const pc = pattern.charAt(p);
    if (p < pattern.length && (pc === '?' || pc === text.charAt(t))) {
      p += 1;
      t += 1;
    } else if (p < pattern.length && pc === '*') {
      star = p;
      resume = t;
      p += 1;
    } else if (star >= 0) {
      p = star + 1;
      resume += 1;
      t = resume;
    } else return false;
  }
  while (pattern.charAt(p) === '*') p += 1;
  return p === pattern.length;
}

/** True when `entry` uses glob characters. */
export function isGlob(entry: string): boolean {
  return entry.includes('*') || entry.includes('?');
}

const SHELL_OPERATORS = /[;&|<>`\n]|\$\(/;

/** True when `text` contains a shell operator; an allowlist glob never matches such text. */
export function hasShellOperator(text: string): boolean {
  return SHELL_OPERATORS.test(text);
}
