/** A small glob matcher for `search_files` (`*`, `**`, `?`, `[...]`, `{a,b}`). */

function escapeChar(ch: string): string {
  return /[.+^$()|\\/]/.test(ch) ? `\\${ch}` : ch;
}

/** Compiles `glob` to a RegExp over `/`-separated relative paths. */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i += 1) {
    const ch = glob[i] as string;
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        const slash = glob[i + 2] === '/';
        out += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else out += '[^/]*';
    } else if (ch === '?') out += '[^/]';
    else if (ch === '[') {
      const close = glob.indexOf(']', i + 1);
      if (close < 0) out += '\\[';
      else {
        out += `[${glob
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else if (ch === '{') {
      braces += 1;
      out += '(?:';
    } else if (ch === '}' && braces > 0) {
      braces -= 1;
      out += ')';
    } else if (ch === ',' && braces > 0) out += '|';
    else out += escapeChar(ch);
  }
  return new RegExp(`^${out}$`);
}

/**
 * A predicate for relative paths. A glob without `/` matches the file name at any depth (like
 * ripgrep's `--glob '*.ts'`); one with `/` matches the whole relative path.
 */
export function globMatcher(glob: string): (relativePath: string) => boolean {
  const re = globToRegExp(glob);
  if (glob.includes('/')) return (p) => re.test(p);
  return (p) => re.test(p.slice(p.lastIndexOf('/') + 1));
}
