// Adversarial command shapes shared by the benchmark and the fuzzer, each about `size` chars.

/** Repeats `unit` until the result is `size` characters (cut to length). */
function fill(unit, size, prefix = '') {
  return (prefix + unit.repeat(Math.ceil(size / unit.length))).slice(0, size);
}

/** Named adversarial commands of `size` characters. */
export function adversarialCommands(size) {
  return {
    'many short commands': fill('true;', size),
    'long pipeline': fill('cat a | ', size),
    'nested substitutions': fill('$(', size),
    'nested subshells': fill('(', size),
    'backticks with escapes': fill('\\`', size, '`'),
    'unterminated quotes': fill('"\'', size),
    'ifs splitting': fill(`rm\${IFS}`, size),
    'ansi-c escapes': fill("$'\\x72'", size),
    'heredoc markers': fill('cat <<E\n', size),
    'line continuations': fill('r\\\n', size),
    'fork-bomb lookalikes': fill('a(){ a|a', size),
    'redirect lookalikes': fill('> /dev/', size),
    'rm with many targets': fill(' /tmp/x', size, 'rm -rf'),
    'sh -c nesting': fill("sh -c '", size),
    'eval chain': fill('eval ', size),
    'sudo chain': fill('sudo ', size),
    'brace lists': fill('{a,b}', size, 'rm -rf /'),
    'deep arithmetic': fill('$((', size),
    'quoted words': fill('"a" ', size),
    'glob-ish paths': fill('/*', size, 'rm -rf '),
  };
}
