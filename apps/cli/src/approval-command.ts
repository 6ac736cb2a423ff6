/**
 * `hermes approval check [--json] -- <command>`: prints the command guard's verdict for a command
 * (decision, stage, reason, pattern key) under the approval settings in config.yaml, so users can
 * test their allowlists and deny rules. It only looks: nothing is run and nothing is written.
 */
import { existsSync } from 'node:fs';
import { checkCommand, loadApprovalSettings } from '@hermes/approval';
import { type CommandLineIo, ExitCode, resolveHermesHome } from '@hermes/config';
import { isHermesError } from '@hermes/protocol';

const USAGE = [
  'Usage: hermes approval check [--json] -- <command>',
  '',
  'Prints whether the command guard would allow, ask about, or block <command>, using the',
  'approvals: settings in config.yaml (mode, deny, command_allowlist). Nothing is run.',
  '',
  'Options:',
  '  --json      print the verdict as JSON',
  '  -h, --help  show this help',
  '',
].join('\n');

function usageError(io: CommandLineIo, message: string): number {
  io.stderr.write(`hermes approval: ${message}\nRun 'hermes approval check --help' for usage.\n`);
  return ExitCode.usage;
}

/** Runs `hermes approval …` with the arguments after `approval`; resolves to the exit code. */
export async function runApprovalCommand(
  args: readonly string[],
  io: CommandLineIo,
): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === '-h' || sub === '--help') {
    io.stdout.write(USAGE);
    return ExitCode.ok;
  }
  if (sub !== 'check')
    return usageError(
      io,
      sub === undefined ? "missing subcommand 'check'" : `unknown subcommand '${sub}'`,
    );
  let json = false;
  let i = 0;
  for (; i < rest.length; i += 1) {
    const arg = rest[i] as string;
    if (arg === '--') {
      i += 1;
      break;
    }
    if (arg === '--json') json = true;
    else if (arg === '-h' || arg === '--help') {
      io.stdout.write(USAGE);
      return ExitCode.ok;
    } else if (arg.startsWith('-')) return usageError(io, `unknown option '${arg}'`);
    else break;
  }
  const command = rest.slice(i).join(' ');
  if (command.trim() === '') return usageError(io, 'no command given; put it after --');
  const env = io.env ?? process.env;
  const home = resolveHermesHome(env);
  let settings: ReturnType<typeof loadApprovalSettings>;
  try {
    settings = loadApprovalSettings(home, {
      env,
      onWarning: (w) => io.stderr.write(`hermes approval: warning: ${w}\n`),
    });
  } catch (error) {
    if (!isHermesError(error)) throw error;
    io.stderr.write(`hermes approval: ${error.message}\n`);
    return ExitCode.failure;
  }
  const verdict = checkCommand(command, {
    mode: settings.mode,
    yolo: settings.yolo,
    deny: settings.deny,
    commandAllowlist: settings.commandAllowlist,
    sudoPasswordConfigured: settings.sudoPasswordConfigured,
    ...(existsSync(home) ? { hermesHome: home } : {}),
    saveBlockedScripts: false,
  });
  if (json) io.stdout.write(`${JSON.stringify(verdict)}\n`);
  else {
    const lines = [
      `decision: ${verdict.decision}`,
      `stage:    ${verdict.stage}`,
      `reason:   ${verdict.reason}`,
    ];
    if (verdict.patternKey) lines.push(`pattern:  ${verdict.patternKey}`);
    if (verdict.recovery) lines.push(`recovery: ${verdict.recovery}`);
    io.stdout.write(`${lines.join('\n')}\n`);
  }
  return ExitCode.ok;
}
