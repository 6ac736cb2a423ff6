/**
 * @packageDocumentation
 * The approval layer of Hermes TS: the {@link ApprovalHandler} seam through which a person rules
 * on a flagged command, the fail-closed {@link requestApproval} envelope callers use to ask it,
 * and the {@link Verdict} type the command guard produces. The guard itself arrives with issue 5.
 */
export * from './approval-context.js';
export * from './approval-handler.js';
export * from './command-approval.js';
export * from './request-approval.js';
export * from './verdict.js';
