/**
 * "Build an Agent from config": the one place that turns a {@link HermesConfig} into
 * `createAgent`'s input, used by the CLI's chat and demo and by the gateway's agent factory.
 */
import type { ApprovalHandler } from '@hermes/approval';
import {
  type AgentOptions,
  type CreatedAgent,
  createAgent,
  type SharedAgentComponents,
} from '@hermes/loop';
import { HermesError } from '@hermes/protocol';
import { findBundledSkillsDir } from '@hermes/skills';
import type { ClarifyCallback, ToolSpec } from '@hermes/tools';
import type { HermesConfig } from '../config/hermes-config.js';

/** The code of the error thrown when the configuration names no usable provider. */
export const NO_PROVIDER_CODE = 'config.no_provider';

/** Who rules on commands that need approval. */
export type ApprovalSurface = 'interactive' | 'cron' | 'single_query' | 'subagent';

/** What one agent is built for, on top of the configuration. */
export interface BuildAgentOptions {
  /** Where the user is: `cli`, `telegram`, `api_server`, … (the session's source). */
  readonly platform: string;
  /** The working directory stated in the system prompt (and the local backend's start). */
  readonly cwd: string;
  /** Who rules on approvals: `interactive` asks `approvalHandler`, `single_query` denies. */
  readonly surface: ApprovalSurface;
  /** Continue this stored session; a new one when absent. */
  readonly sessionId?: string;
  /** Replaces the configured model (the gateway's `/model`). */
  readonly model?: string;
  /** The toolsets to enable; default `config.toolsets` (else `hermes-cli`). */
  readonly toolsets?: readonly string[];
  readonly approvalHandler?: ApprovalHandler;
  readonly clarify?: ClarifyCallback;
  /** Extra tools for this agent (not with `shared`: those go to the shared registry). */
  readonly tools?: readonly ToolSpec[];
  /** Session store, registry, skills and approval settings shared with other agents. */
  readonly shared?: SharedAgentComponents;
  /** Extra Agent options, applied last. */
  readonly overrides?: Partial<AgentOptions>;
}

/**
 * Builds an agent from `config`: its provider (with `options.model` in place of the configured
 * model), turn budgets, toolsets, terminal, skills (with the bundled ones) and yolo setting.
 *
 * @throws HermesError `config.no_provider` with `config.providerProblem` when no provider is
 * usable; `createAgent`'s errors for a bad entry.
 */
export function buildAgent(config: HermesConfig, options: BuildAgentOptions): CreatedAgent {
  if (!config.provider) {
    throw new HermesError(NO_PROVIDER_CODE, config.providerProblem ?? 'no provider is configured');
  }
  const bundledDir = options.shared ? undefined : findBundledSkillsDir();
  const toolsets = options.toolsets ?? config.toolsets;
  return createAgent(
    {
      provider: {
        ...(config.provider as Record<string, unknown>),
        ...(options.model ? { model: options.model } : {}),
      },
      hermesHome: config.hermesHome,
      platform: options.platform,
      cwd: options.cwd,
      maxIterations: config.maxTurns,
      yolo: config.yolo,
      approvalSurface: options.surface,
      skills: { dirs: [...config.skillDirs], ...(bundledDir ? { bundledDir } : {}) },
      ...(config.runBudgetSeconds ? { runBudgetSeconds: config.runBudgetSeconds } : {}),
      ...(toolsets ? { toolsets: [...toolsets] } : {}),
      ...(config.disabledToolsets ? { disabledToolsets: [...config.disabledToolsets] } : {}),
      ...(config.terminal ? { terminal: { ...config.terminal } } : {}),
      ...(options.sessionId ? { sessionId: options.sessionId } : {}),
    },
    {
      ...(options.approvalHandler ? { approvalHandler: options.approvalHandler } : {}),
      ...(options.clarify ? { clarify: options.clarify } : {}),
      ...(options.tools ? { tools: options.tools } : {}),
      ...(options.shared ? { shared: options.shared } : {}),
      ...(options.overrides ? { overrides: options.overrides } : {}),
    },
  );
}
