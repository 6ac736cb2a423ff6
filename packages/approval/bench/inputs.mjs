// Adversarial command shapes shared by the benchmark and the fuzzer, each about `size` chars.

/** Repeats `unit` until the result is `size` characters (cut to length). */
function fill(unit, size, prefix = '') {
  return (prefix + unit.repeat(Math.ceil(size / unit.length))).slice(0, size);
}

/** `make(i)` for i = 0, 1, 2, … joined until `size` characters: nothing repeats. */
function distinct(make, size) {
  const parts = [];
  let length = 0;
  for (let i = 0; length < size; i += 1) {
    const part = make(i.toString(36));
    parts.push(part);
    length += part.length;
  }
  return parts.join('').slice(0, size);
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
    'distinct backticks': distinct((i) => `\`c${i}\`${i.endsWith('0') ? ';' : ''}`, size),
    'distinct substitutions': distinct((i) => `$(c${i})${i.endsWith('0') ? ';' : ''}`, size),
    'substituted heads': distinct((i) => `\`c${i};\`x;`, size),
    'nested distinct lists': distinct(
      (i) => `$(c${i};${i.endsWith('z') ? `${')'.repeat(36)};` : ''}`,
      size,
    ),
    'recursive deletes': distinct((i) => `rm -rf /tmp/x${i};`, size),
    'carried substitutions': distinct((i) => `eval "$(c${i})";`, size),
    'find -exec rm': distinct((i) => `find d${i} -exec rm {} \\;;`, size),
    'assigned names': distinct((i) => `X${i}=rm;$X${i} -rf /tmp/a;`, size),
    'cd then delete': distinct((i) => `cd d${i};rm -rf x;`, size),
    // Text fed to shells as data: each piece is parsed again as a script.
    'echo into sh': distinct((i) => `echo 'rm -rf /tmp/${i}'|sh;`, size),
    'printf escapes into bash': distinct((i) => `printf '\\x72m -rf /t/%s\\n' ${i}|bash;`, size),
    'long printf format into sh': fill('\\x72m -rf /t/%s\\n', size - 10, "printf '").concat(
      "' a b|sh;",
    ),
    'heredocs into sh': distinct((i) => `cat <<E|sh\nrm -rf /t/${i}\nE\n`, size),
    'written then run': distinct((i) => `echo 'rm -rf /t/${i}'>f${i};sh f${i};`, size),
    'appended then run': fill("printf 'rm -rf /tmp/x '>>f;", size - 5).concat(';sh f'),
    'groups into sh': distinct((i) => `(echo 'rm -rf /t/${i}')|sh;`, size),
    'xargs into sh': distinct((i) => `echo 'rm -rf /t/${i}'|xargs -0 sh -c;`, size),
    'ifs-split names': distinct((i) => `IFS=,;c${i}=rm,-rf,/t/${i};$c${i};`, size),
  };
}
