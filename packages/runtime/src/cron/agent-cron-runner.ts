/**
 * The real {@link CronAgentRunner}: one fresh agent per run, built from the configuration like
 * every other agent, but narrowed for a run nobody watches (seed 12.4): platform and approval
 * surface `cron` (so `approvals.cron_mode` rules, default deny), the `hermes-cron` toolset, and
 * never `clarify`, `delegate_task` or `cronjob` — not even when the job asks for a toolset that
 * holds them. A turn that did not end in an answer is a failure with its reason, never `ok`.
 */

import { homedir } from 'node:os';
import {
  type CronAgentRequest,
  type CronAgentResult,
  CronAgentRunner,
  type CronJob,
} from '@hermes/cron';
import {
  type AgentOptions,
  type CreatedAgent,
  describeExitReason,
  type TurnResult,
} from '@hermes/loop';
import type { SessionStore } from '@hermes/state';
import { describeThrown, type ToolSpec } from '@hermes/tools';
import type { AgentPluginParts } from '../agents/agent-plugins.js';
import { buildAgent } from '../agents/build-agent.js';
import type { HermesConfig } from '../config/hermes-config.js';

/** The toolset a job gets when it names none. */
export const CRON_DEFAULT_TOOLSETS: readonly string[] = Object.freeze(['hermes-cron']);

/**
 * Toolsets a job's agent never gets, whatever the job asks: they are also disabled, so a bundle
 * that holds their tools (`hermes-cli`) loses them too.
 */
export const CRON_FORBIDDEN_TOOLSETS: readonly string[] = Object.freeze([
  'clarify',
  'delegation',
  'cronjob',
]);

/** What {@link AgentCronRunner} takes besides the configuration. */
export interface AgentCronRunnerOptions {
  /** The working directory of a job that names none. Default `terminal.cwd`, else home. */
  readonly cwd?: string;
  /** Extra Agent options for every run (tests shorten retry waits). */
  readonly overrides?: Partial<AgentOptions>;
  /**
   * What the host's agents have beyond the built-ins, read at each run so a job sees the host's
   * current MCP tools: extra tools with their toolsets (enabled beside the job's), and the loaded
   * plugins' parts (tools, hooks, memory and context strategies).
   */
  readonly extras?: () => CronAgentExtras;
  /** Where runs keep their sessions; default SQLite in `HERMES_HOME/state.db`. Not closed here. */
  readonly store?: SessionStore;
}

/** The MCP servers' and plugins' share of a job's agent. */
export interface CronAgentExtras {
  readonly tools?: readonly ToolSpec[];
  readonly toolsets?: readonly string[];
  readonly plugins?: AgentPluginParts;
}

/** The toolsets a run of `job` enables: the job's (or `hermes-cron`) minus the forbidden ones. */
export function cronToolsetsFor(job: Pick<CronJob, 'enabledToolsets'>): string[] {
  const asked = job.enabledToolsets ?? CRON_DEFAULT_TOOLSETS;
  return asked.filter((name) => !CRON_FORBIDDEN_TOOLSETS.includes(name));
}

/**
 * The failure of a turn that did not end in an answer (what `hermes chat -q` treats as a failure:
 * failed, interrupted, or not completed), else undefined.
 */
export function turnFailure(result: TurnResult, lastError?: string): string | undefined {
  if (result.completed && !result.failed && !result.interrupted) return undefined;
  const what = describeExitReason(result.exitReason);
  const why = result.error ?? lastError;
  return `${what} (${result.exitReason})${why ? `: ${why}` : ''}`;
}

/** The build options for the host's extras: never a forbidden toolset. */
function extrasOptions(extras: CronAgentExtras | undefined) {
  const toolsets = (extras?.toolsets ?? []).filter((n) => !CRON_FORBIDDEN_TOOLSETS.includes(n));
  return {
    ...(extras?.tools?.length ? { tools: extras.tools } : {}),
    ...(toolsets.length ? { extraToolsets: toolsets } : {}),
    ...(extras?.plugins ? { plugins: extras.plugins } : {}),
  };
}

/** Runs a job's turn in a fresh `cron` agent. */
export class AgentCronRunner extends CronAgentRunner {
  readonly #config: HermesConfig;
  readonly #options: AgentCronRunnerOptions;

  constructor(config: HermesConfig, options: AgentCronRunnerOptions = {}) {
    super();
    // Unattended: `--yolo` of the command that started the scheduler never reaches a job, and
    // the forbidden toolsets are disabled on top of the configured ones.
    this.#config = {
      ...config,
      yolo: false,
      disabledToolsets: [
        ...new Set([...(config.disabledToolsets ?? []), ...CRON_FORBIDDEN_TOOLSETS]),
      ],
    };
    this.#options = options;
  }

  /** One turn on `request.prompt` in a new session; the agent is closed before this resolves. */
  async run(request: CronAgentRequest): Promise<CronAgentResult> {
    const { job } = request;
    let created: CreatedAgent;
    try {
      created = buildAgent(this.#config, {
        platform: 'cron',
        surface: 'cron',
        cwd: job.workdir ?? this.#defaultCwd(),
        toolsets: cronToolsetsFor(job),
        // The agent closes when the job's one turn ends: a review or a title would be cut off
        // after it was paid for, and the job's name already says what the session is.
        learning: { enabled: false, titles: false },
        ...extrasOptions(this.#options.extras?.()),
        ...(job.model ? { model: job.model } : {}),
        ...(this.#options.store ? { store: this.#options.store } : {}),
        ...(this.#options.overrides ? { overrides: this.#options.overrides } : {}),
      });
    } catch (error) {
      return { text: '', failure: `the agent could not be built: ${describeThrown(error)}` };
    }
    let lastError: string | undefined;
    const off = created.agent.on('error', (event) => {
      lastError = event.message;
    });
    try {
      const result = await created.agent.runConversation(request.prompt, {
        signal: request.signal,
      });
      const failure = turnFailure(result, lastError);
      return {
        text: result.finalResponse,
        sessionId: result.sessionId,
        ...(failure ? { failure } : {}),
      };
    } catch (error) {
      const sessionId = created.agent.sessionId;
      return { text: '', failure: describeThrown(error), ...(sessionId ? { sessionId } : {}) };
    } finally {
      off();
      await created.close();
    }
  }

  #defaultCwd(): string {
    const configured = this.#config.terminal?.cwd;
    if (this.#options.cwd) return this.#options.cwd;
    return typeof configured === 'string' && configured.trim() !== '' ? configured : homedir();
  }
}
