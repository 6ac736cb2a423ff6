/**
 * The schema of `HERMES_HOME/config.yaml`. Sections use Hermes' snake_case keys. Unknown keys are
 * allowed through here and reported by the validator (warnings when loading, errors for `hermes
 * config check`); `terminal` is checked with `@hermes/environments`' own schema, `gateway` and
 * `platforms` with `@hermes/gateway`'s, `plugins` with the plugin host's, `mcp_servers` with
 * `@hermes/mcp`'s, and the values of `approvals` by `@hermes/approval`'s loader, so none is
 * described twice.
 */
import { TerminalConfigSchema } from '@hermes/environments';
import { GatewaySectionSchema, PlatformsSectionSchema } from '@hermes/gateway';
import { McpServersSectionSchema } from '@hermes/mcp/config';
import { ApiModeSchema, PoolStrategySchema } from '@hermes/providers';
import { z } from 'zod';
import { PluginsSectionSchema } from '../plugins/plugins-section.js';
import { AuxiliarySectionSchema } from './auxiliary-section.js';
import { CheckpointsSectionSchema } from './checkpoints-section.js';
import { CronSectionSchema } from './cron-section.js';
import { LearningSectionSchema } from './learning-section.js';
import { StorageSectionSchema } from './storage-section.js';
import { WebSectionSchema } from './web-section.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const name = z.string().trim().min(1, 'must not be empty');
const url = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' });
const envName = z.string().regex(ENV_NAME, 'expected an environment variable name');
const names = z.array(name);

/** One member of `model.fallback`. */
export const FallbackEntryConfigSchema = z.looseObject({
  provider: name,
  model: name,
  base_url: url.optional(),
  api_key_env: envName.optional(),
});

/** `model:` — which provider and model, where, and what to fall back to. */
export const ModelSectionSchema = z.looseObject({
  /** `openrouter`, `openai`, `anthropic`, `custom`, … */
  provider: name.optional(),
  /** The model name (`default` is Hermes' spelling). */
  default: name.optional(),
  base_url: url.optional(),
  /** The variable holding the key, when not the provider's default (`OPENAI_API_KEY`, …). */
  api_key_env: envName.optional(),
  /** The wire protocol (`chat_completions`, `anthropic_messages`, …); inferred when absent. */
  api_mode: ApiModeSchema.optional(),
  fallback: z.array(FallbackEntryConfigSchema).optional(),
});

/** `agent:` — budgets of one run. */
export const AgentSectionSchema = z.looseObject({
  max_turns: z.number().int().positive().max(10_000).optional(),
  run_budget_seconds: z.number().positive().optional(),
});

/** `memory:` — the memory provider and the built-in store's limits. */
export const MemorySectionSchema = z.looseObject({
  provider: name.optional(),
  memory_char_limit: z.number().int().positive().optional(),
  user_char_limit: z.number().int().positive().optional(),
});

/** `context:` — which context engine runs the turn's compression (a plugin may offer others). */
export const ContextSectionSchema = z.looseObject({
  /** The engine's name; the built-in compressor when absent. */
  engine: name.optional(),
});

/** `skills:` — extra folders of skills (read-only). */
export const SkillsSectionSchema = z.looseObject({
  external_dirs: names.optional(),
});

/** `compression:` — when the context compressor fires. */
export const CompressionSectionSchema = z.looseObject({
  enabled: z.boolean().optional(),
  /** Share of the context window at which compression fires. */
  threshold: z.number().gt(0).lte(1).optional(),
  protect_first_n: z.number().int().nonnegative().optional(),
  tail_min_messages: z.number().int().nonnegative().optional(),
  context_length: z.number().int().positive().optional(),
});

/** `display:` — how the chat renders. */
export const DisplaySectionSchema = z.looseObject({
  show_reasoning: z.boolean().optional(),
  streaming: z.boolean().optional(),
  spinner: z.boolean().optional(),
  tool_progress: z.enum(['all', 'new', 'off']).optional(),
  show_cost: z.boolean().optional(),
});

/** `platform_toolsets:` — the toolsets each platform's agents get (`telegram: [hermes-telegram]`). */
export const PlatformToolsetsSchema = z.record(name, names);

/** The strategy names `@hermes/providers` defines, listed in the error so a typo is easy to fix. */
const strategy = z.enum(PoolStrategySchema.options, {
  error: `expected one of ${PoolStrategySchema.options.join(', ')}`,
});

/**
 * One provider's entry under `credential_pool:` — how its pool picks among its keys. Strict: the
 * unknown-key pass does not walk into per-name records, so this schema reports typos itself.
 */
export const CredentialPoolEntrySchema = z.strictObject({
  /** Default `fill_first`. */
  strategy: strategy.optional(),
});

/** `credential_pool:` — per provider name (`openai`, `openrouter`, …), its pool's settings. */
export const CredentialPoolSectionSchema = z.record(name, CredentialPoolEntrySchema.nullish());

/** The whole file. `null` sections (a key with nothing under it) count as absent. */
export const HermesConfigFileSchema = z.looseObject({
  model: ModelSectionSchema.nullish(),
  agent: AgentSectionSchema.nullish(),
  toolsets: names.nullish(),
  disabled_toolsets: names.nullish(),
  terminal: TerminalConfigSchema.nullish(),
  approvals: z.unknown().optional(),
  memory: MemorySectionSchema.nullish(),
  context: ContextSectionSchema.nullish(),
  skills: SkillsSectionSchema.nullish(),
  compression: CompressionSectionSchema.nullish(),
  display: DisplaySectionSchema.nullish(),
  platform_toolsets: PlatformToolsetsSchema.nullish(),
  gateway: GatewaySectionSchema.nullish(),
  platforms: PlatformsSectionSchema.nullish(),
  /** Read by the plugin host; its schema rejects unknown keys. */
  plugins: PluginsSectionSchema.nullish(),
  /** MCP servers by name, read by `@hermes/mcp`'s hub; each entry's schema rejects unknown keys. */
  mcp_servers: McpServersSectionSchema.nullish(),
  /** The scheduler: parallelism, time zone, run timeout, outputs kept, tick. */
  cron: CronSectionSchema.nullish(),
  /** `web_search`'s backend and its settings. */
  web: WebSectionSchema.nullish(),
  /** The model of each side task (compression, approval, title, review, vision, web_extract). */
  auxiliary: AuxiliarySectionSchema.nullish(),
  /** The background review after turns (the learning loop). */
  learning: LearningSectionSchema.nullish(),
  /** Snapshots of the working directory before file changes (`/rollback`). */
  checkpoints: CheckpointsSectionSchema.nullish(),
  /** Per provider, how its credential pool picks a key (`hermes auth` manages the keys). */
  credential_pool: CredentialPoolSectionSchema.nullish(),
  /** Where sessions, jobs and the gateway's state live: SQLite (default) or PostgreSQL. */
  storage: StorageSectionSchema.nullish(),
});
/** config.yaml after validation. */
export type HermesConfigFile = z.output<typeof HermesConfigFileSchema>;

/**
 * The keys of `approvals:` that `@hermes/approval`'s loader reads. It validates their values but
 * passes any other key by in silence, so the unknown-key pass checks the names here (keep this
 * list in step with `ApprovalsSectionSchema` in `@hermes/approval`'s settings.ts).
 */
const ApprovalsKeysSchema = z.looseObject({
  mode: z.unknown(),
  timeout: z.unknown(),
  cron_mode: z.unknown(),
  single_query_mode: z.unknown(),
  subagent_mode: z.unknown(),
  deny: z.unknown(),
  command_allowlist: z.unknown(),
});

/**
 * What the unknown-key pass walks: the file's schema, plus the key names of sections whose values
 * another component validates.
 */
export const KNOWN_KEYS_SCHEMA: z.ZodType = HermesConfigFileSchema.extend({
  approvals: ApprovalsKeysSchema.nullish(),
});

/**
 * Top-level sections accepted as written: not reported as unknown, and not validated here.
 * `command_allowlist` is read (and checked) by `@hermes/approval`; nothing reads the others yet
 * (delegation, profiles): each leaves this list when its issue lands and its
 * section gets a schema.
 */
export const FOREIGN_SECTIONS: ReadonlySet<string> = new Set([
  'command_allowlist',
  'delegation',
  'profiles',
]);

/** Sections whose own schema rejects unknown keys, so the unknown-key pass skips them. */
export const STRICT_SECTIONS: ReadonlySet<string> = new Set([
  'terminal',
  'gateway',
  'plugins',
  'mcp_servers',
  'credential_pool',
  'storage',
]);

/** Documented defaults, for `hermes config get` of an unset key. */
export const CONFIG_DEFAULTS: Readonly<Record<string, unknown>> = {
  'agent.max_turns': 90,
  toolsets: ['hermes-cli'],
  'terminal.backend': 'local',
  'memory.provider': 'builtin',
  'memory.memory_char_limit': 2_200,
  'memory.user_char_limit': 1_375,
  'compression.enabled': true,
  'display.show_reasoning': true,
  'display.streaming': true,
  'display.spinner': true,
  'display.tool_progress': 'all',
  'cron.max_parallel_jobs': 3,
  'cron.job_timeout_seconds': 1_800,
  'cron.keep_outputs': 50,
  'cron.tick_seconds': 60,
  'storage.backend': 'sqlite',
  'storage.pool_size': 10,
};
