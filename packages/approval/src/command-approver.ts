/**
 * `CommandApprover`: the whole approval pipeline behind the {@link CommandApproval} contract —
 * {@link inspectCommand}, then for an `ask`: the surface's policy (cron, single query, subagent),
 * or smart mode and then the {@link ApprovalHandler} (interactive CLI or gateway). Session
 * approvals live in memory per session id; `always` is written to config.yaml.
 */
import type { ApprovalHandler } from './approval-handler.js';
import { type CommandCheck, inspectCommand } from './check-command.js';
import type {
  ApprovalSurface,
  CommandApproval,
  CommandApprovalOutcome,
  CommandApprovalRequest,
} from './command-approval.js';
import { addToCommandAllowlist } from './config-file.js';
import { checkFileWrite } from './file-write-guard.js';
import { redactSecrets } from './redact.js';
import { requestApproval } from './request-approval.js';
import {
  type ApprovalSettings,
  DEFAULT_APPROVAL_SETTINGS,
  type UnattendedPolicy,
} from './settings.js';
import {
  parseSmartReply,
  type SmartJudge,
  type SmartReply,
  stripShellComments,
} from './smart-approval.js';
import type { Verdict } from './verdict.js';

/** Emitted once for every command the approver rules on. The command is secret-redacted. */
export interface ApprovalVerdictEvent {
  readonly type: 'approval_verdict';
  readonly sessionId: string;
  readonly surface: ApprovalSurface;
  readonly command: string;
  readonly verdict: Verdict;
  /** Every dangerous pattern key behind the verdict (several commands may each match). */
  readonly patternKeys: readonly string[];
  /** Whether the guard said `ask`, so the verdict is a ruling (policy, smart mode or a person). */
  readonly asked: boolean;
}

/**
 * Emitted when the guard's verdict is `ask`, before anyone rules on it (policy, smart mode or a
 * person). The command is secret-redacted.
 */
export interface ApprovalAskEvent {
  readonly sessionId: string;
  readonly surface: ApprovalSurface;
  readonly command: string;
  /** Why the guard flagged it. */
  readonly reason: string;
  readonly patternKeys: readonly string[];
}

/** Collaborators of a {@link CommandApprover}. */
export interface CommandApproverOptions {
  /** The data home: config.yaml for `always`, `cache/blocked-scripts/` for oversized commands. */
  readonly hermesHome: string;
  /** Asks a person on the interactive surface. Without one, interactive `ask`s are denied. */
  readonly handler?: ApprovalHandler;
  /** The smart-mode judge (see `createSmartJudge`). Without one, smart mode asks the handler. */
  readonly smartJudge?: SmartJudge;
  /**
   * How long the judge may take; past it the person is asked, as for any failure. Default
   * {@link SMART_JUDGE_TIMEOUT_MS}.
   */
  readonly smartTimeoutMs?: number;
  /**
   * What the judge is told about the conversation: the user's latest message, and the agent's
   * working directory for commands whose request names none.
   */
  readonly smartContext?: () => { readonly lastUserMessage?: string; readonly cwd?: string };
  /** Receives every verdict. Errors it throws are swallowed: observers never break approval. */
  readonly onEvent?: (event: ApprovalVerdictEvent) => void;
  /**
   * Told about every command that needs a ruling, before anyone rules. Errors it throws are
   * swallowed like `onEvent`'s.
   */
  readonly onAsk?: (event: ApprovalAskEvent) => void;
  /** When set, `checkFileWrite` only allows paths inside this folder. */
  readonly writeSafeRoot?: string;
  /** The user's home directory, for `~`; defaults to the process's. */
  readonly home?: string;
}

/** How long the smart-mode judge may take by default before the person is asked instead. */
export const SMART_JUDGE_TIMEOUT_MS = 30_000;

const HUMAN_REASONS = {
  once: 'approved by the user for this command',
  session: 'approved by the user for the rest of this session',
  always: 'approved by the user permanently (added to command_allowlist)',
} as const;

/** Runs the approval pipeline; see {@link CommandApproval}. */
export class CommandApprover implements CommandApproval {
  private readonly settings: ApprovalSettings;
  private readonly allowlist: string[];
  private readonly sessions = new Map<string, Set<string>>();

  constructor(
    settings: Partial<ApprovalSettings>,
    private readonly options: CommandApproverOptions,
  ) {
    this.settings = { ...DEFAULT_APPROVAL_SETTINGS, ...settings };
    this.allowlist = [...this.settings.commandAllowlist];
  }

  /** Pattern keys approved for the rest of `sessionId`. */
  sessionApprovals(sessionId: string): ReadonlySet<string> {
    return this.sessions.get(sessionId) ?? new Set();
  }

  /** Forgets the session approvals of `sessionId` (call when the session ends). */
  endSession(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  async approve(command: string, request: CommandApprovalRequest): Promise<CommandApprovalOutcome> {
    const check = inspectCommand(command, {
      mode: this.settings.mode,
      yolo: this.settings.yolo,
      deny: this.settings.deny,
      commandAllowlist: this.allowlist,
      sessionApprovals: this.sessionApprovals(request.sessionId),
      sudoPasswordConfigured: this.settings.sudoPasswordConfigured,
      hermesHome: this.options.hermesHome,
      ...(this.options.home === undefined ? {} : { home: this.options.home }),
    });
    const keys = [...new Set(check.findings.map((f) => f.key))];
    const asked = check.verdict.decision === 'ask';
    if (asked) this.announceAsk(command, request, check.verdict.reason, keys);
    const verdict = asked ? await this.rule(command, request, check, keys) : check.verdict;
    this.emit(command, request, verdict, keys, asked);
    return { allowed: verdict.decision === 'allow', verdict };
  }

  checkFileWrite(path: string): Verdict {
    return checkFileWrite(path, {
      hermesHome: this.options.hermesHome,
      ...(this.options.writeSafeRoot === undefined
        ? {}
        : { writeSafeRoot: this.options.writeSafeRoot }),
      ...(this.options.home === undefined ? {} : { home: this.options.home }),
    });
  }

  /** Decides an `ask`: policy for unattended surfaces, else smart mode, then the person. */
  private async rule(
    command: string,
    request: CommandApprovalRequest,
    check: CommandCheck,
    keys: string[],
  ): Promise<Verdict> {
    const base = { reason: check.verdict.reason, ...(keys[0] ? { patternKey: keys[0] } : {}) };
    if (request.surface !== 'interactive') return this.policyVerdict(request.surface, base);
    if (this.settings.mode === 'smart' && this.options.smartJudge) {
      const { ruling, reason } = await this.judge(command, check.verdict.reason, request);
      const why = reason ? ` — ${reason}` : '';
      if (ruling === 'approve')
        return {
          ...base,
          decision: 'allow',
          stage: 'smart',
          reason: `smart approval: judged safe${why} (${base.reason})`,
        };
      if (ruling === 'deny') {
        return {
          ...base,
          decision: 'block',
          stage: 'smart',
          reason: `smart approval: judged harmful${why} (${base.reason})`,
          recovery: 'Do not retry this command; explain to the user what you wanted to do.',
        };
      }
    }
    const handler = this.options.handler;
    if (!handler) {
      return {
        ...base,
        decision: 'block',
        stage: 'policy',
        reason: `${base.reason}; nobody is available to approve it`,
        recovery: 'Ask the user to run the command themselves.',
      };
    }
    const outcome = await requestApproval(handler, command, check.verdict.reason, {
      sessionId: request.sessionId,
      platform: request.platform,
      timeoutMs: request.timeoutMs ?? this.settings.timeoutSeconds * 1000,
      ...(keys[0] ? { patternKey: keys[0] } : {}),
      ...(request.cwd === undefined ? {} : { cwd: request.cwd }),
      ...(request.toolName === undefined ? {} : { toolName: request.toolName }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
    if (outcome.decision === 'deny') {
      const why =
        outcome.decidedBy === 'timeout'
          ? 'no answer before the approval timed out'
          : outcome.failure
            ? `approval failed (${outcome.failure})`
            : 'denied by the user';
      return {
        ...base,
        decision: 'block',
        stage: 'human',
        reason: `${base.reason}; ${why}`,
        recovery: 'Do not retry this command; ask the user how to proceed.',
      };
    }
    return {
      ...base,
      decision: 'allow',
      stage: 'human',
      reason: this.record(outcome.decision, request.sessionId, keys),
    };
  }

  private policyVerdict(
    surface: Exclude<ApprovalSurface, 'interactive'>,
    base: { reason: string; patternKey?: string },
  ): Verdict {
    const setting = {
      cron: 'cron_mode',
      single_query: 'single_query_mode',
      subagent: 'subagent_mode',
    }[surface];
    const policy: UnattendedPolicy = {
      cron: this.settings.cronMode,
      single_query: this.settings.singleQueryMode,
      subagent: this.settings.subagentMode,
    }[surface];
    if (policy === 'approve')
      return {
        ...base,
        decision: 'allow',
        stage: 'policy',
        reason: `${base.reason}; allowed by approvals.${setting}: approve`,
      };
    return {
      ...base,
      decision: 'block',
      stage: 'policy',
      reason: `${base.reason}; denied by approvals.${setting}: deny (nobody is there to approve)`,
      recovery:
        'Find a way to do this without the flagged command, or report that it needs a person.',
    };
  }

  /**
   * Asks the judge. A judge that throws, times out, is interrupted or answers anything but a
   * ruling escalates to the person — never allows.
   */
  private async judge(
    command: string,
    flagged: string,
    request: CommandApprovalRequest,
  ): Promise<SmartReply> {
    const timeoutMs = this.options.smartTimeoutMs ?? SMART_JUDGE_TIMEOUT_MS;
    const timer = new AbortController();
    const signal = request.signal ? AbortSignal.any([request.signal, timer.signal]) : timer.signal;
    let timeout: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<SmartReply>((resolve) => {
      timeout = setTimeout(() => {
        timer.abort();
        resolve({ ruling: 'escalate', reason: 'the judge did not answer in time' });
      }, timeoutMs);
    });
    try {
      const context = {
        ...this.conversation(),
        ...(request.cwd === undefined ? {} : { cwd: request.cwd }),
        signal,
      };
      const asked = (this.options.smartJudge as SmartJudge)(
        stripShellComments(command),
        flagged,
        context,
      ).then(parseSmartReply);
      return await Promise.race([asked, expired]);
    } catch {
      return { ruling: 'escalate', reason: 'the judge failed' };
    } finally {
      clearTimeout(timeout);
    }
  }

  private conversation(): { lastUserMessage?: string; cwd?: string } {
    try {
      const context = this.options.smartContext?.();
      return {
        ...(context?.lastUserMessage ? { lastUserMessage: context.lastUserMessage } : {}),
        ...(context?.cwd ? { cwd: context.cwd } : {}),
      };
    } catch {
      return {};
    }
  }

  /** Applies a `once` / `session` / `always` answer and returns the verdict's reason. */
  private record(
    decision: 'once' | 'session' | 'always',
    sessionId: string,
    keys: string[],
  ): string {
    if (decision === 'once') return HUMAN_REASONS.once;
    const session = this.sessions.get(sessionId) ?? new Set<string>();
    for (const key of keys) session.add(key);
    this.sessions.set(sessionId, session);
    if (decision === 'session') return HUMAN_REASONS.session;
    for (const key of keys) if (!this.allowlist.includes(key)) this.allowlist.push(key);
    try {
      addToCommandAllowlist(this.options.hermesHome, keys);
      return HUMAN_REASONS.always;
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return `approved by the user; allowed for this session, but saving to config.yaml failed: ${why}`;
    }
  }

  private emit(
    command: string,
    request: CommandApprovalRequest,
    verdict: Verdict,
    keys: string[],
    asked: boolean,
  ): void {
    try {
      this.options.onEvent?.({
        type: 'approval_verdict',
        sessionId: request.sessionId,
        surface: request.surface,
        command: redactSecrets(command),
        verdict,
        patternKeys: keys,
        asked,
      });
    } catch {
      // An observer must never break approval.
    }
  }

  private announceAsk(
    command: string,
    request: CommandApprovalRequest,
    reason: string,
    keys: string[],
  ): void {
    if (!this.options.onAsk) return;
    try {
      this.options.onAsk({
        sessionId: request.sessionId,
        surface: request.surface,
        command: redactSecrets(command),
        reason,
        patternKeys: keys,
      });
    } catch {
      // An observer must never break approval.
    }
  }
}
