/**
 * The `approval:` setting of an MCP server. A tool that runs shell commands on the server's side
 * bypasses the terminal tool's guard, so its command goes through the same command approver.
 */
import type { ToolContext } from '@hermes/tools';
import type { McpApprovalMode } from './config-schema.js';

/** The command approver, as tools see it. */
export type CommandApprovalLike = NonNullable<ToolContext['approval']>;
/** One approval request (`sessionId`, `platform`, `surface`, …). */
export type CommandApprovalRequestLike = Parameters<CommandApprovalLike['approve']>[1];

/** Words in a tool's name or description that say it runs shell commands. */
export const SHELL_TOOL_PATTERN = /\b(shell|exec|execute|run[_ ]?command|terminal|bash)\b/i;

/** Argument keys that carry a command line, in the order they are looked for. */
const COMMAND_KEYS = ['command', 'cmd', 'script'] as const;

/** Whether a tool's name or description says it runs shell commands. */
export function looksLikeShellTool(name: string, description: string | undefined): boolean {
  // `_` and `-` are word characters to \b; as separators in names they must split words.
  const spaced = name.replace(/[_-]+/g, ' ');
  return SHELL_TOOL_PATTERN.test(spaced) || SHELL_TOOL_PATTERN.test(description ?? '');
}

/** The first string `command` / `cmd` / `script` argument, if any. */
export function commandArgument(args: Readonly<Record<string, unknown>>): string | undefined {
  for (const key of COMMAND_KEYS) {
    const value = args[key];
    if (typeof value === 'string' && value.length > 0) return value;
  }
  return undefined;
}

/** What one call is about to do, for the gate. */
export interface GatedCall {
  readonly server: string;
  readonly tool: string;
  readonly description: string | undefined;
  readonly exposedName: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** The string the approver must rule on, or `undefined` when the call needs no approval. */
export function approvalSubject(mode: McpApprovalMode, call: GatedCall): string | undefined {
  if (mode === 'never') return undefined;
  const command = commandArgument(call.args);
  if (mode === 'always') {
    return command ?? `mcp ${call.server} ${call.tool} ${JSON.stringify(call.args)}`;
  }
  return command !== undefined && looksLikeShellTool(call.tool, call.description)
    ? command
    : undefined;
}

function shown(subject: string): string {
  return subject.length > 200 ? `${subject.slice(0, 197)}...` : subject;
}

/**
 * Runs the approval for one call.
 *
 * @returns `undefined` when the call may go ahead, otherwise the refusal text to return instead.
 */
export async function checkMcpApproval(
  mode: McpApprovalMode,
  call: GatedCall,
  ctx: ToolContext,
): Promise<string | undefined> {
  const subject = approvalSubject(mode, call);
  if (subject === undefined) return undefined;
  if (!ctx.approval) {
    return `BLOCKED: ${call.exposedName} needs command approval, and this session has no approval layer, so it was not run.\nCommand: ${shown(subject)}`;
  }
  const request: CommandApprovalRequestLike = {
    sessionId: ctx.sessionId,
    platform: ctx.platform,
    toolName: call.exposedName,
    signal: ctx.signal,
    surface: ctx.approvalSurface ?? 'single_query',
  };
  const outcome = await ctx.approval.approve(subject, request);
  if (outcome.allowed) return undefined;
  const verdict = outcome.verdict;
  const recovery = verdict.recovery ? `\n${verdict.recovery}` : '';
  return `BLOCKED (${verdict.stage}): ${verdict.reason}\nCommand: ${shown(subject)}${recovery}\nThe MCP tool ${call.exposedName} was not called. Do not retry this command in another form; ask the user or choose a safer approach.`;
}
