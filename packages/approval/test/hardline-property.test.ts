/**
 * Property: no hardline true positive is ever allowed — whatever the mode, yolo, allowlists,
 * session approvals or deny rules, and however the command is wrapped, spelled or nested.
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

const context = fc.record({
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

describe('hardline floor (property)', () => {
  it('blocks every generated hardline command in every mode, allowlist and yolo combination', () => {
    fc.assert(
      fc.property(payload, wrapper, shape, context, (p, w, s, ctx) => {
        const command = s(`${w}${p}`);
        const literal = { ...ctx, commandAllowlist: [...ctx.commandAllowlist, command] };
        const verdict = checkCommand(command, {
          ...literal,
          home: '/home/t',
          saveBlockedScripts: false,
        });
        expect(verdict, command).toMatchObject({ decision: 'block', stage: 'hardline' });
      }),
      { numRuns: 3000 },
    );
  });
});
