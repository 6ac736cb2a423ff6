// @ts-check
/**
 * Finds the module specifiers a JS/TS source file imports.
 *
 * A full parser would be exact but would add a dependency and a build step to a check that must run
 * under plain `node`. Instead a small tokenizer drops comments, strings it does not need, template
 * literals and regular-expression literals, so that `import`/`from`/`require` inside them are never
 * mistaken for real imports. Known limits (documented in README.md): specifiers built from template
 * literals or variables are not seen, and an apostrophe in JSX text can hide the rest of its line.
 */

/**
 * @typedef {'id' | 'str' | 'punct' | 'other'} TokenType
 * @typedef {{ type: TokenType, value: string, index: number }} Token
 * @typedef {'static' | 'side-effect' | 'dynamic' | 'require'} ImportForm
 * @typedef {{ specifier: string, line: number, form: ImportForm }} ImportRef
 */

const ID_START = /[\p{ID_Start}$_]/u;
const ID_PART = /[\p{ID_Continue}$\u200c\u200d]/u;
const DIGIT = /[0-9]/;
const NUMBER_PART = /[0-9A-Za-z_.]/;
const WHITESPACE = /\s/;

/** Keywords after which a `/` starts a regular expression rather than a division. */
const REGEX_AFTER_KEYWORD = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);

/**
 * Returns every import specifier in `source`, in source order.
 * @param {string} source
 * @returns {ImportRef[]}
 */
export function extractImports(source) {
  const tokens = tokenize(source);
  /** @type {ImportRef[]} */
  const found = [];
  for (let k = 0; k < tokens.length; k++) {
    const match = matchImportAt(tokens, k);
    if (match) {
      found.push({
        specifier: match.token.value,
        line: lineOf(source, match.token.index),
        form: match.form,
      });
    }
  }
  return found;
}

/**
 * Recognises `from '<s>'`, `import '<s>'`, `import('<s>')` and `require('<s>')` at token `k`.
 * `from` directly followed by a string literal only occurs in import/export declarations.
 * @param {Token[]} tokens
 * @param {number} k
 * @returns {{ token: Token, form: ImportForm } | undefined}
 */
function matchImportAt(tokens, k) {
  const t = tokens[k];
  // `x.import(...)`, `Array.from('..')`, `obj.require('..')` are member calls, not module loads.
  if (t?.type !== 'id' || tokens[k - 1]?.value === '.') return undefined;
  const n1 = tokens[k + 1];
  const n2 = tokens[k + 2];
  const n3 = tokens[k + 3];
  if (t.value === 'from' && n1?.type === 'str') return { token: n1, form: 'static' };
  if (t.value === 'import' && n1?.type === 'str') return { token: n1, form: 'side-effect' };
  const isCall =
    n1?.value === '(' && n2?.type === 'str' && (n3?.value === ')' || n3?.value === ',');
  if (isCall && n2 && t.value === 'import') return { token: n2, form: 'dynamic' };
  if (isCall && n2 && t.value === 'require') return { token: n2, form: 'require' };
  return undefined;
}

/**
 * 1-based line number of a character offset.
 * @param {string} source
 * @param {number} index
 */
function lineOf(source, index) {
  let line = 1;
  for (let i = 0; i < index; i++) if (source.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Splits source into identifiers, quoted strings and punctuation; comments and template/regex
 * literals are consumed without producing tokens that could look like imports.
 * @param {string} source
 * @returns {Token[]}
 */
export function tokenize(source) {
  /** @type {Token[]} */
  const tokens = [];
  // Brace depth at which each open template `${` started, so its closing `}` resumes the template.
  /** @type {number[]} */
  const templateDepths = [];
  let depth = 0;
  let i = 0;
  while (i < source.length) {
    const ch = source.charAt(i);
    const next = source.charAt(i + 1);
    if (WHITESPACE.test(ch)) {
      i++;
    } else if (ch === '/' && next === '/') {
      i = skipLineComment(source, i);
    } else if (ch === '/' && next === '*') {
      i = skipBlockComment(source, i);
    } else if (ch === '"' || ch === "'") {
      const end = skipQuoted(source, i);
      tokens.push({ type: 'str', value: source.slice(i + 1, end - 1), index: i });
      i = end;
    } else if (ch === '`' || (ch === '}' && templateDepths.at(-1) === depth)) {
      if (ch === '}') templateDepths.pop();
      const chunk = skipTemplateChunk(source, i + 1);
      if (chunk.opensExpression) templateDepths.push(depth);
      tokens.push({ type: chunk.opensExpression ? 'punct' : 'other', value: '`', index: i });
      i = chunk.end;
    } else if (ID_START.test(ch)) {
      const end = skipWhile(source, i, ID_PART);
      tokens.push({ type: 'id', value: source.slice(i, end), index: i });
      i = end;
    } else if (DIGIT.test(ch)) {
      i = skipWhile(source, i, NUMBER_PART);
      tokens.push({ type: 'other', value: '0', index: i });
    } else if (ch === '/' && regexAllowedAfter(tokens.at(-1))) {
      i = skipRegex(source, i);
      tokens.push({ type: 'other', value: '/re/', index: i });
    } else {
      if (ch === '{') depth++;
      if (ch === '}') depth--;
      tokens.push({ type: 'punct', value: ch, index: i });
      i++;
    }
  }
  return tokens;
}

/**
 * A `/` begins a regex when no value precedes it (start, operator, open bracket, keyword).
 * @param {Token | undefined} prev
 */
function regexAllowedAfter(prev) {
  if (!prev) return true;
  if (prev.type === 'punct') return prev.value !== ')' && prev.value !== ']' && prev.value !== '}';
  if (prev.type === 'id') return REGEX_AFTER_KEYWORD.has(prev.value);
  return false;
}

/**
 * @param {string} source
 * @param {number} start
 * @param {RegExp} pattern
 */
function skipWhile(source, start, pattern) {
  let i = start;
  while (i < source.length && pattern.test(source.charAt(i))) i++;
  return i;
}

/**
 * @param {string} source
 * @param {number} start index of the first `/`
 */
function skipLineComment(source, start) {
  const end = source.indexOf('\n', start);
  return end === -1 ? source.length : end;
}

/**
 * @param {string} source
 * @param {number} start index of the `/`
 */
function skipBlockComment(source, start) {
  const end = source.indexOf('*/', start + 2);
  return end === -1 ? source.length : end + 2;
}

/**
 * Skips a '…' or "…" literal; an unterminated one stops at the end of its line so one stray
 * quote cannot swallow the rest of the file.
 * @param {string} source
 * @param {number} start index of the opening quote
 * @returns {number} index just past the closing quote
 */
function skipQuoted(source, start) {
  const quote = source.charAt(start);
  let i = start + 1;
  while (i < source.length) {
    const ch = source.charAt(i);
    if (ch === '\\') i += 2;
    else if (ch === quote) return i + 1;
    else if (ch === '\n') return i;
    else i++;
  }
  return source.length;
}

/**
 * Skips template text up to the closing backtick or the next `${`.
 * @param {string} source
 * @param {number} start index just past the backtick or the `}` that closed an expression
 * @returns {{ end: number, opensExpression: boolean }}
 */
function skipTemplateChunk(source, start) {
  let i = start;
  while (i < source.length) {
    const ch = source.charAt(i);
    if (ch === '\\') i += 2;
    else if (ch === '`') return { end: i + 1, opensExpression: false };
    else if (ch === '$' && source.charAt(i + 1) === '{')
      return { end: i + 2, opensExpression: true };
    else i++;
  }
  return { end: source.length, opensExpression: false };
}

/**
 * Skips a regex literal including its flags; `/` inside a character class does not end it.
 * @param {string} source
 * @param {number} start index of the opening `/`
 */
function skipRegex(source, start) {
  let i = start + 1;
  let inClass = false;
  while (i < source.length) {
    const ch = source.charAt(i);
    if (ch === '\\') i += 2;
    else if (ch === '\n') return i;
    else if (ch === '/' && !inClass) return skipWhile(source, i + 1, ID_PART);
    else {
      if (ch === '[') inClass = true;
      if (ch === ']') inClass = false;
      i++;
    }
  }
  return source.length;
}
