/**
 * `checkCommand`: the deterministic part of the approval pipeline. Stages, in order: hardline
 * floor → sudo stdin guard → parser limits → user deny globs → yolo / mode off → allowlists and
 * session approvals → dangerous patterns → no match.
 */
import { homedir } from 'node:os';
import { type Analysis, analyzeCommand } from './analyze.js';
import { saveBlockedScript } from './blocked-scripts.js';
import { globMatch, hasShellOperator, isGlob } from './glob.js';
import { COMMAND_LIMITS, PARSER_LIMITS, parserLimitExceeded } from './limits.js';
import type { Finding } from './rules/types.js';
import type { ApprovalMode } from './settings.js';
import type { Verdict } from './verdict.js';

/** What {@link checkCommand} needs to know besides the command. Every field is optional. */
export interface CheckContext {
  /** `smart` (default), `manual` or `off`; `off` allows what passes the floor and deny globs. */
  readonly mode?: ApprovalMode;
  /** `--yolo`: like mode `off`. */
  readonly yolo?: boolean;
  /** `approvals.deny` globs; they hold even in yolo mode. */
  readonly deny?: readonly string[];
  /** `command_allowlist`: pattern keys, literal commands, or globs. */
  readonly commandAllowlist?: readonly string[];
  /** Pattern keys approved for the rest of this session. */
  readonly sessionApprovals?: ReadonlySet<string>;
  /** Whether a sudo password is configured; if not, piping into `sudo -S` is blocked. */
  readonly sudoPasswordConfigured?: boolean;
  /** The data home; an oversized command is saved under `cache/blocked-scripts/` there. */
  readonly hermesHome?: string;
  /** Set false to refuse oversized commands without saving them (e.g. a dry-run check). */
  readonly saveBlockedScripts?: boolean;
  /** The user's home directory, for `~` and `$HOME`; defaults to the process's. */
  readonly home?: string;
}

/** A verdict with every dangerous finding behind it (several commands may each match). */
export interface CommandCheck {
  readonly verdict: Verdict;
  /** The dangerous-pattern findings; empty for hardline, limit and deny verdicts. */
  readonly findings: readonly Finding[];
}

const DEFAULT_HOME = homedir();

function block(
  stage: Verdict['stage'],
  reason: string,
  extra: Partial<Verdict> = {},
): CommandCheck {
  return { verdict: { decision: 'block', stage, reason, ...extra }, findings: [] };
}

function hardlineVerdict(finding: Finding): CommandCheck {
  return block('hardline', finding.reason, {
    patternKey: finding.key,
    recovery:
      'This command is on the never-allow list and no setting can permit it. Do not retry it or a ' +
      'variant of it; if the user really wants it, they must run it themselves.',
  });
}

function limitVerdict(command: string, why: string, ctx: CheckContext): CommandCheck {
  const saveAllowed = ctx.saveBlockedScripts ?? true;
  const path =
    saveAllowed && ctx.hermesHome !== undefined
      ? saveBlockedScript(ctx.hermesHome, command, why)
      : undefined;
  const recovery = path
    ? `The command was saved unchanged to ${path}; run \`bash ${path}\` instead of resending it.`
    : 'Write the commands to a script file and run the file, or split the command into smaller ones.';
  return block('parser_limit', `command too large to analyse: ${why}`, { recovery });
}

/**
 * Past the {@link COMMAND_LIMITS} the analysis stopped, so the floor was not checked for the
 * whole line: unlike the other limits, it is not saved as a script the model could run instead.
 */
function tooManyVerdict(): CommandCheck {
  const { commands, judged } = COMMAND_LIMITS;
  return block(
    'parser_limit',
    `command too large to analyse: it runs more than ${commands} commands, or more than ${judged} that need checking`,
    {
      recovery:
        'Split the work into smaller commands of at most a few hundred steps each, or ask the user to run it.',
    },
  );
}

function denyVerdict(command: string, analysis: Analysis | undefined, deny: readonly string[]) {
  const variants = [command, command.trim(), ...(analysis?.variants ?? [])];
  for (const glob of deny) {
    if (variants.some((variant) => globMatch(glob, variant))) {
      return block('user_deny', `matches the deny rule "${glob}" in approvals.deny`, {
        recovery: 'The user has denied commands like this one; do not retry it or a variant of it.',
      });
    }
  }
  return undefined;
}

/** Which allowlist entry, if any, covers one finding. */
function allowlistEntryFor(finding: Finding, allowlist: readonly string[]): string | undefined {
  return allowlist.find((entry) => {
    if (entry === finding.key || entry === finding.payload) return true;
    return isGlob(entry) && !hasShellOperator(finding.payload) && globMatch(entry, finding.payload);
  });
}

function coverage(
  command: string,
  findings: readonly Finding[],
  ctx: CheckContext,
): CommandCheck | undefined {
  const allowlist = ctx.commandAllowlist ?? [];
  const keys = [...new Set(findings.map((f) => f.key))];
  if (allowlist.includes(command.trim())) {
    return allow(
      'allowlist',
      'allowed by command_allowlist (the exact command)',
      keys[0],
      findings,
    );
  }
  let bySession = false;
  const entries = new Set<string>();
  for (const finding of findings) {
    const entry = allowlistEntryFor(finding, allowlist);
    if (entry !== undefined) entries.add(entry);
    else if (ctx.sessionApprovals?.has(finding.key)) bySession = true;
    else return undefined;
  }
  if (bySession)
    return allow(
      'session',
      `approved earlier in this session (${keys.join(', ')})`,
      keys[0],
      findings,
    );
  return allow(
    'allowlist',
    `allowed by command_allowlist (${[...entries].join(', ')})`,
    keys[0],
    findings,
  );
}

function allow(
  stage: Verdict['stage'],
  reason: string,
  patternKey: string | undefined,
  findings: readonly Finding[],
): CommandCheck {
  const verdict: Verdict = { decision: 'allow', stage, reason };
  return { verdict: patternKey ? { ...verdict, patternKey } : verdict, findings };
}

/**
 * Runs the deterministic stages on `command` and returns the verdict together with every
 * dangerous finding. Synchronous, and pure except that an oversized command is saved as a script
 * when `ctx.hermesHome` is set.
 */
export function inspectCommand(command: string, ctx: CheckContext = {}): CommandCheck {
  const paths = {
    home: ctx.home ?? DEFAULT_HOME,
    hermesHome: ctx.hermesHome ?? `${ctx.home ?? DEFAULT_HOME}/.hermes`,
  };
  const tooLong = parserLimitExceeded(command);
  // Past a parser limit only a floor hit can change the verdict, so the patterns are skipped.
  const analysis =
    command.length > PARSER_LIMITS.maxChars
      ? undefined
      : analyzeCommand(command, paths, {
          collectVariants: tooLong === undefined && (ctx.deny?.length ?? 0) > 0,
          floorOnly: tooLong !== undefined,
        });
  if (analysis?.hardline) return hardlineVerdict(analysis.hardline);
  if (analysis?.sudoStdin && !ctx.sudoPasswordConfigured) {
    return block('sudo_stdin', analysis.sudoStdin.reason, {
      patternKey: 'sudo_stdin',
      recovery:
        'Do not pipe a password into sudo -S. Ask the user to configure a sudo password for the agent, or to run the command themselves.',
    });
  }
  if (analysis?.tooMany) return tooManyVerdict();
  const why =
    tooLong ?? (analysis?.tooDeep ? 'it nests commands too deeply to analyse' : undefined);
  if (why !== undefined || analysis === undefined)
    return limitVerdict(command, why ?? 'too long', ctx);
  const denied = denyVerdict(command, analysis, ctx.deny ?? []);
  if (denied) return denied;
  if (ctx.yolo || ctx.mode === 'off') {
    const reason = ctx.yolo
      ? 'approvals are off (yolo)'
      : 'approvals are off (approvals.mode: off)';
    return { verdict: { decision: 'allow', stage: 'yolo', reason }, findings: analysis.findings };
  }
  if (analysis.findings.length === 0) {
    return {
      verdict: { decision: 'allow', stage: 'no_match', reason: 'no rule matched' },
      findings: [],
    };
  }
  const covered = coverage(command, analysis.findings, ctx);
  if (covered) return covered;
  const first = analysis.findings[0] as Finding;
  const reasons = [...new Set(analysis.findings.map((f) => f.reason))].join('; ');
  return {
    verdict: {
      decision: 'ask',
      stage: 'dangerous_pattern',
      reason: reasons,
      patternKey: first.key,
    },
    findings: analysis.findings,
  };
}

/**
 * The command guard: `allow`, `block` or `ask` for `command`, and the stage that decided.
 *
 * @example
 * checkCommand('rm -rf /');           // { decision: 'block', stage: 'hardline', … }
 * checkCommand("bash -lc 'rm -rf build'"); // { decision: 'ask', patternKey: 'recursive_delete', … }
 */
export function checkCommand(command: string, ctx: CheckContext = {}): Verdict {
  return inspectCommand(command, ctx).verdict;
}
