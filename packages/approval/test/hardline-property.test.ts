/**
 * Property: no hardline true positive is ever allowed — whatever the mode, yolo, allowlists,
 * session approvals or deny rules, and however the command is wrapped, spelled or nested, or
 * fed to a shell as data: piped, here-string'ed, here-document'ed, written to a file and run,
 * built by xargs, or hidden in a variable split on a custom IFS.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCommand, HARDLINE_RULES } from '../src/index.ts';

const rmName = fc.constantFrom(
  'rm',
  "r''m",
  '"rm"',
  '\\rm',
  '/bin/rm',
  '/usr/bin/rm',
  "$'\\x72m'",
  'r\\\nm',
);
const rmFlags = fc.constantFrom(
  '-rf',
  '-fr',
  '-r -f',
  '-Rf',
  '--recursive --force',
  '-rf --no-preserve-root',
  '-f',
);
const target = fc.constantFrom(
  '/',
  '//',
  '/.',
  '/..',
  '/*',
  '"/"',
  "'/'",
  '/ *',
  '/./',
  '/etc',
  '/usr/*',
  '/home/',
  '/root',
  '/var',
  '/bin',
  '/sbin/*',
  '/boot',
  '/lib',
  '~',
  '~/',
  '$HOME',
  `\${HOME}`,
  '"$HOME"',
  '/{etc,tmp}',
);
const rmCommand = fc
  .tuple(rmName, rmFlags, target)
  .map(([name, flags, path]) => `${name} ${flags} ${path}`);
const otherHardline = fc.constantFrom(
  'mkfs.ext4 /dev/sda1',
  'mkfs /dev/sdb',
  'dd if=/dev/zero of=/dev/sda',
  'echo x > /dev/nvme0n1',
  ':(){ :|:& };:',
  'kill -9 -1',
  'kill -- -1',
  'shutdown -h now',
  'reboot',
  'halt',
  'poweroff',
  'init 0',
  'init 6',
  'systemctl poweroff',
  'systemctl reboot',
  'telinit 6',
  'telinit 0',
);
const payload = fc.oneof(rmCommand, otherHardline);

const wrapper = fc.constantFrom(
  '',
  'sudo ',
  '/usr/bin/sudo ',
  'sudo -u root ',
  'env ',
  'env A=1 ',
  'exec ',
  'nohup ',
  'time ',
  'timeout 5 ',
  'command ',
  'builtin ',
  'xargs ',
  'nice -n 5 ',
  'doas ',
  'FOO=bar ',
  'stdbuf -oL ',
);
type Shape = (inner: string) => string;
const shape = fc.constantFrom<Shape>(
  (p) => p,
  (p) => `echo ok && ${p}`,
  (p) => `true; ${p}`,
  (p) => `ls | ${p}`,
  (p) => `(${p})`,
  (p) => `echo $(${p})`,
  (p) => `echo "$(${p})"`,
  (p) => `if true; then ${p}; fi`,
  (p) => `bash -c '${p.replaceAll("'", "'\\''")}'`,
  (p) =>
    `sh -lc "${p.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('$', '\\$').replaceAll('`', '\\`')}"`,
  (p) => `bash <<'EOF'\n${p}\nEOF`,
  (p) => `cat <<EOF\n$(${p})\nEOF`,
  (p) => `${p} &`,
);

/** `text` inside single quotes. */
const sq = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;
/** `text` as a printf format that prints it unchanged. */
const asFormat = (text: string): string => text.replaceAll('\\', '\\\\').replaceAll('%', '%%');

/** Carriers that hand the payload to a shell as data. */
const fedShape = fc.constantFrom<Shape>(
  (p) => `echo ${sq(p)} | sh`,
  (p) => `echo ${sq(p)} | sudo bash -s`,
  (p) => `printf '%s\\n' ${sq(p)} | bash`,
  (p) => `printf ${sq(asFormat(p))} | /bin/sh`,
  (p) => `echo -e ${sq(p.replaceAll('\\', '\\\\'))} | env sh`,
  (p) => `cat <<'EOF' | sh\n${p}\nEOF`,
  (p) => `cat <<< ${sq(p)} | bash -x`,
  (p) => `bash <<< ${sq(p)}`,
  (p) => `echo ${sq(p)} > /tmp/h.sh; sh /tmp/h.sh`,
  (p) => `printf '%s\\n' ${sq(p)} > h.sh && bash ./h.sh`,
  (p) => `cat > h.sh <<'EOF'\n${p}\nEOF\nbash h.sh`,
  (p) => `echo ${sq(p)} | tee h.sh >/dev/null; . ./h.sh`,
  (p) => `echo ${sq(p)} > h; chmod +x h; ./h`,
  (p) => `(echo ${sq(p)}) | sh`,
  (p) => `{ echo ls; echo ${sq(p)}; } | bash`,
  (p) => `echo ${sq(p)} | (sh)`,
  (p) => `echo ${sq(p)} | xargs -0 sh -c`,
  (p) => `c=${sq(p)}; echo "$c" | sh`,
  (p) => `sh -c "$(echo ${sq(p)})"`,
);

/** Hardline commands whose words survive being joined by an IFS character and split again. */
const splittable = fc.constantFrom(
  ['rm', '-rf', '/'],
  ['rm', '-fr', '/etc'],
  ['/bin/rm', '-rf', '/usr'],
  ['rm', '-r', '-f', '/home'],
  ['rm', '-rf', '/root/'],
  ['rm', '--recursive', '--force', '/var'],
  ['sudo', 'rm', '-rf', '/boot'],
  ['shutdown', '-h', 'now'],
  ['reboot'],
  ['mkfs.ext4', '/dev/sda1'],
  ['kill', '-9', '-1'],
  ['init', '0'],
  ['systemctl', 'poweroff'],
  ['dd', 'if=/dev/zero', 'of=/dev/sda'],
);
const ifsChar = fc.constantFrom(',', ':', '@', '%', '+', '^');
type SplitShape = (words: readonly string[], ifs: string) => string;
const splitShape = fc.constantFrom<SplitShape>(
  (w, c) => `IFS=${c}; x=${w.join(c)}; $x`,
  (w, c) => `IFS=${c}; x=${w.join(c)}; \${x}`,
  (w, c) => `IFS='${c}'; x='${w.join(c)}'; sudo $x`,
  (w, c) => `export IFS=${c}; x=${w.join(c)}; env $x`,
  (w, c) => `IFS=${c}; a=${w.slice(1).join(c)}; ${w[0]} $a`,
  (w, c) => `IFS=${c}; x=${w.join(c)}; echo "$x" | tr ${sq(c)} ' ' | cat; $x`,
);

/** The settings a generated command is checked under. */
interface PropertyContext {
  readonly mode: 'smart' | 'manual' | 'off';
  readonly yolo: boolean;
  readonly commandAllowlist: readonly string[];
  readonly sessionApprovals: ReadonlySet<string>;
  readonly deny: readonly string[];
  readonly sudoPasswordConfigured: boolean;
}

const context: fc.Arbitrary<PropertyContext> = fc.record({
  mode: fc.constantFrom('smart', 'manual', 'off') as fc.Arbitrary<'smart' | 'manual' | 'off'>,
  yolo: fc.boolean(),
  commandAllowlist: fc.subarray([
    '*',
    '?*',
    'rm*',
    'recursive_delete',
    'root_delete',
    'shutdown',
    'sudo*',
    'bash*',
  ]),
  sessionApprovals: fc.subarray(Object.keys(HARDLINE_RULES)).map((keys) => new Set(keys)),
  deny: fc.subarray(['git push*', 'npm publish*']),
  sudoPasswordConfigured: fc.boolean(),
});

/** Checks `command` under `ctx`, with the command itself allowlisted too. */
function expectBlocked(command: string, ctx: PropertyContext): void {
  const literal = { ...ctx, commandAllowlist: [...ctx.commandAllowlist, command] };
  const verdict = checkCommand(command, { ...literal, home: '/home/t', saveBlockedScripts: false });
  expect(verdict, command).toMatchObject({ decision: 'block', stage: 'hardline' });
}

describe('hardline floor (property)', () => {
  it('blocks every generated hardline command in every mode, allowlist and yolo combination', () => {
    fc.assert(
      fc.property(payload, wrapper, fc.oneof(shape, fedShape), context, (p, w, s, ctx) => {
        expectBlocked(s(`${w}${p}`), ctx);
      }),
      { numRuns: 4000 },
    );
  });

  it('blocks a hardline command hidden in a variable split on a custom IFS', () => {
    fc.assert(
      fc.property(splittable, ifsChar, splitShape, context, (words, c, s, ctx) => {
        expectBlocked(s(words, c), ctx);
      }),
      { numRuns: 1000 },
    );
  });
});
