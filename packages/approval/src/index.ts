/**
 * @packageDocumentation
 * The approval layer of Hermes TS: the command guard ({@link checkCommand}) that decides whether a
 * shell command a model wrote may run, the {@link CommandApprover} that runs the whole pipeline
 * (guard, smart mode, policy, a person), the file-write guard, approval settings, and the
 * {@link ApprovalHandler} seam through which a person rules on a flagged command.
 */
export { type Analysis, analyzeCommand, MAX_CARRIER_DEPTH } from './analyze.js';
export * from './approval-context.js';
export * from './approval-handler.js';
export {
  BLOCKED_SCRIPT_MAX_AGE_MS,
  blockedScriptsDir,
  saveBlockedScript,
} from './blocked-scripts.js';
export * from './check-command.js';
export * from './command-approval.js';
export * from './command-approver.js';
export { addToCommandAllowlist } from './config-file.js';
export * from './file-write-guard.js';
export { globMatch } from './glob.js';
export { COMMAND_LIMITS, PARSER_LIMITS, parserLimitExceeded } from './limits.js';
export { redactSecrets } from './redact.js';
export * from './request-approval.js';
export { HARDLINE_RULES } from './rules/hardline.js';
export type { Finding } from './rules/types.js';
export * from './settings.js';
export type {
  HereDoc,
  LinkNotice,
  Redirect,
  Script,
  SimpleCommand,
  Substitution,
  Word,
} from './shell/ast.js';
export { maskQuoted } from './shell/mask.js';
export { parseShell } from './shell/parser.js';
export * from './smart-approval.js';
export * from './verdict.js';
