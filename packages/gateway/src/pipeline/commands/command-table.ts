/**
 * Step 2: slash commands, answered without the model. One table, one small handler each; an
 * unknown `/word` is not a command here and goes to the model as text (skills and prompts use
 * slash words too).
 */
import { learnCommand, rollbackCommand } from './agent-commands.js';
import { answerApproval, approveCommand, denyCommand } from './approval-commands.js';
import type { CommandCall, CommandHost, SlashCommand } from './command-host.js';
import { statusCommand, usageCommand } from './info-commands.js';
import { parseCommand } from './parse-command.js';
import {
  compressCommand,
  modelCommand,
  newCommand,
  steerCommand,
  stopCommand,
} from './session-commands.js';

const helpCommand: SlashCommand = {
  name: 'help',
  summary: 'this list',
  async run() {
    return ['Commands:', ...SLASH_COMMANDS.map(helpLine)].join('\n');
  },
};

/** Every slash command, in the order `/help` lists them. */
export const SLASH_COMMANDS: readonly SlashCommand[] = [
  newCommand,
  stopCommand,
  steerCommand,
  approveCommand,
  denyCommand,
  statusCommand,
  usageCommand,
  compressCommand,
  modelCommand,
  learnCommand,
  rollbackCommand,
  helpCommand,
];

function helpLine(command: SlashCommand): string {
  return `/${command.name}${command.args ? ` ${command.args}` : ''} — ${command.summary}`;
}

const BY_NAME = new Map(SLASH_COMMANDS.map((command) => [command.name, command]));

/** A message the command step answered, and the answer. */
export interface CommandAnswer {
  readonly command: string;
  readonly text: string;
}

/**
 * Answers `call.message` when it is a slash command, or a plain yes/no while a command of this
 * person's waits for approval. Resolves `undefined` when the message is for the model.
 */
export async function runSlashCommand(
  call: Omit<CommandCall, 'args'>,
): Promise<CommandAnswer | undefined> {
  const parsed = parseCommand(call.message.text);
  const command = parsed ? BY_NAME.get(parsed.name) : undefined;
  if (command && parsed) {
    return { command: command.name, text: await command.run({ ...call, args: parsed.args }) };
  }
  const ruling = answerApproval(call, call.message.text);
  return ruling === undefined ? undefined : { command: 'approval-answer', text: ruling };
}

export type { CommandHost };
