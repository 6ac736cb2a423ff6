/**
 * The REPL's slash commands: the table, `/help`, and the dispatcher. A command may hand back a
 * message to send as a turn (`/retry`, `/<skill-name>`); otherwise it only prints.
 */
import { expandSkillCommand } from '@hermes/skills';
import type { Repl } from './repl.js';
import {
  compressCommand,
  contextCommand,
  memoryCommand,
  skillsCommand,
  toolsCommand,
  toolsetsCommand,
  usageCommand,
} from './slash-info.js';
import { learnCommand } from './slash-learn.js';
import { reloadMcpCommand } from './slash-mcp.js';
import { modelCommand } from './slash-model.js';
import { rollbackCommand } from './slash-rollback.js';
import {
  newCommand,
  resumeCommand,
  retryCommand,
  titleCommand,
  undoCommand,
} from './slash-session.js';

/** A command's handler: prints, and may return a message to run as a turn. */
export type SlashHandler = (
  repl: Repl,
  args: string,
) => Promise<string | undefined> | string | undefined;

/** One slash command. */
export interface SlashCommand {
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly usage: string;
  readonly summary: string;
  readonly run: SlashHandler;
}

/** Every built-in command, in help order. */
export const SLASH_COMMANDS: readonly SlashCommand[] = [
  {
    name: 'new',
    aliases: ['reset'],
    usage: '/new',
    summary: 'start a new session',
    run: newCommand,
  },
  {
    name: 'resume',
    usage: '/resume [id|title]',
    summary: 'list recent sessions, or continue one',
    run: resumeCommand,
  },
  {
    name: 'title',
    usage: '/title [text]',
    summary: 'show or set the session title',
    run: titleCommand,
  },
  {
    name: 'model',
    usage: '/model [name]',
    summary: "the provider's models, or switch to one (Tab completes the name)",
    run: modelCommand,
  },
  { name: 'retry', usage: '/retry', summary: 'send your last message again', run: retryCommand },
  {
    name: 'undo',
    usage: '/undo',
    summary: 'drop the last exchange from the conversation',
    run: undoCommand,
  },
  {
    name: 'rollback',
    usage: '/rollback [n]',
    summary: 'list file checkpoints, or restore checkpoint n',
    run: rollbackCommand,
  },
  {
    name: 'compress',
    usage: '/compress [topic]',
    summary: 'compress the conversation now',
    run: compressCommand,
  },
  { name: 'usage', usage: '/usage', summary: 'tokens and cost so far', run: usageCommand },
  {
    name: 'learn',
    usage: '/learn',
    summary: 'review this conversation now; save memories or skills worth keeping',
    run: learnCommand,
  },
  {
    name: 'context',
    usage: '/context',
    summary: 'what the conversation holds',
    run: contextCommand,
  },
  {
    name: 'steer',
    usage: '/steer <text>',
    summary: 'a note the model sees at its next step',
    run: steerCommand,
  },
  { name: 'stop', usage: '/stop', summary: 'interrupt the running turn', run: stopCommand },
  { name: 'tools', usage: '/tools', summary: 'the tools the agent has', run: toolsCommand },
  {
    name: 'toolsets',
    usage: '/toolsets',
    summary: 'toolsets and their tools',
    run: toolsetsCommand,
  },
  {
    name: 'skills',
    usage: '/skills',
    summary: 'skills; run one with /<skill-name> [instruction]',
    run: skillsCommand,
  },
  { name: 'memory', usage: '/memory', summary: 'show MEMORY.md and USER.md', run: memoryCommand },
  {
    name: 'reload-mcp',
    usage: '/reload-mcp',
    summary: 'reconnect the MCP servers of config.yaml (their tools from the next turn)',
    run: reloadMcpCommand,
  },
  { name: 'yolo', usage: '/yolo', summary: 'switch command approvals off or on', run: yoloCommand },
  { name: 'help', aliases: ['?'], usage: '/help', summary: 'this list', run: helpCommand },
  {
    name: 'quit',
    aliases: ['exit', 'q'],
    usage: '/quit',
    summary: 'leave',
    run: (repl) => void repl.quit(),
  },
];

/** Runs the slash command in `text` (which starts with `/`); resolves to a message to send. */
export async function runSlashCommand(repl: Repl, text: string): Promise<string | undefined> {
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(text);
  const word = (match?.[1] ?? '').toLowerCase();
  const args = (match?.[2] ?? '').trim();
  const command = SLASH_COMMANDS.find((c) => c.name === word || c.aliases?.includes(word));
  if (command) return command.run(repl, args);
  const expansion = expandSkillCommand(text, repl.session.skills.catalog().skills);
  if (expansion) {
    repl.say(repl.options.style.dim(`📚 using skill ${expansion.skill.name}`));
    return expansion.message;
  }
  repl.say(`Unknown command /${word}. Type /help for the list.`);
  return undefined;
}

function helpCommand(repl: Repl): undefined {
  const width = Math.max(...SLASH_COMMANDS.map((c) => c.usage.length)) + 2;
  const lines = SLASH_COMMANDS.map((c) => `  ${c.usage.padEnd(width)}${c.summary}`);
  lines.push(
    '',
    'Multi-line input: end a line with \\ to continue it, or put the text between two """ lines.',
    'While a turn runs: type to correct the model; Ctrl-C interrupts; Ctrl-C twice quits.',
  );
  repl.say(lines.join('\n'));
  return undefined;
}

function steerCommand(repl: Repl, args: string): undefined {
  if (!args) repl.say('Usage: /steer <text>');
  else if (repl.session.agent.steer(args)) repl.say('Noted; the model sees it at its next step.');
  return undefined;
}

function stopCommand(repl: Repl): undefined {
  if (repl.session.agent.running) repl.interrupt();
  else repl.say('Nothing is running.');
  return undefined;
}

function yoloCommand(repl: Repl): undefined {
  const approval = repl.session.approval;
  approval.yolo = !approval.yolo;
  repl.say(
    approval.yolo
      ? repl.options.style.yellow(
          'YOLO on: commands run without asking (hardline rules still apply).',
        )
      : 'YOLO off: flagged commands ask for approval again.',
  );
  return undefined;
}
