/**
 * The `gateway:` section of config.yaml (snake_case, as Hermes spells it) and the settings the
 * gateway runs with (camelCase, defaults applied). Platform-specific settings live with each
 * adapter under `platforms.<name>`; see `platform-settings.ts`.
 */
import { parseOrThrow } from '@hermes/protocol';
import { z } from 'zod';

const positiveInt = z.number().int().positive();
const userIds = z.array(z.coerce.string().trim().min(1));

/** What happens to a message that arrives while its session's agent is running. */
export const BusyPolicySchema = z.enum(['steer', 'interrupt', 'queue']);
export type BusyPolicy = z.infer<typeof BusyPolicySchema>;

/** When a chat's session starts over by itself. */
export const ResetPolicySchema = z.enum(['none', 'idle', 'daily', 'both']);
export type ResetPolicy = z.infer<typeof ResetPolicySchema>;

/** Which tool-progress lines a chat sees (`display.tool_progress`). */
export const ToolProgressSchema = z.enum(['all', 'new', 'off']);
export type ToolProgress = z.infer<typeof ToolProgressSchema>;

/** `gateway:` in config.yaml. Unknown keys are rejected so typos fail loudly. */
export const GatewaySectionSchema = z.strictObject({
  /** The identity this gateway serves (`HERMES_HOME` of that profile). Default `default`. */
  profile: z.string().trim().min(1).optional(),
  busy_policy: BusyPolicySchema.optional(),
  /** Turns running at once across all sessions. */
  max_concurrent_turns: positiveInt.optional(),
  /** In group chats each member gets their own session (default true). */
  group_sessions_per_user: z.boolean().optional(),
  reset: z
    .strictObject({
      policy: ResetPolicySchema.optional(),
      /** `idle`: start over after this many minutes without a message. */
      idle_minutes: positiveInt.optional(),
      /** `daily`: start over at the first message after this local hour (0–23). */
      daily_hour: z.number().int().min(0).max(23).optional(),
    })
    .optional(),
  agent_cache: z
    .strictObject({
      /** Agents kept in memory at most (least recently used goes first). */
      max: positiveInt.optional(),
      /** An agent idle this long is closed (it is rebuilt from the store when needed). */
      idle_ttl_seconds: positiveInt.optional(),
      /** Evict idle agents while the heap is above this share of its limit. */
      heap_pressure_ratio: z.number().gt(0).lte(1).optional(),
    })
    .optional(),
  hygiene: z
    .strictObject({
      /** Compress before the turn at this share of the context window. */
      threshold: z.number().gt(0).lte(1).optional(),
      /** … or at this many stored messages. */
      max_messages: positiveInt.optional(),
      /** First cooldown after a failed hygiene compression; ×1, ×3, ×9 … */
      cooldown_base_seconds: positiveInt.optional(),
      cooldown_max_seconds: positiveInt.optional(),
    })
    .optional(),
  /** How long a command waits for `/approve` or `/deny` before it is denied. */
  approval_timeout_seconds: positiveInt.optional(),
  /** Users allowed on every platform (after each platform's own list). */
  allowed_users: userIds.optional(),
  /** Everyone may talk to the agent on every platform. Dangerous; default false. */
  allow_all_users: z.boolean().optional(),
  /** On SIGTERM: how long running turns may take to finish before they are interrupted. */
  drain_timeout_seconds: positiveInt.optional(),
  /** Streaming by editing one message in place, where the platform can edit. */
  stream: z
    .strictObject({
      enabled: z.boolean().optional(),
      /** At most one edit per this many milliseconds per message (platform rate limits). */
      edit_interval_ms: positiveInt.optional(),
    })
    .optional(),
  /** Which tool-progress lines a chat sees; default `display.tool_progress`, else `all`. */
  tool_progress: ToolProgressSchema.optional(),
  /** Pairing codes for unknown users in DMs. */
  pairing: z
    .strictObject({
      enabled: z.boolean().optional(),
      code_ttl_seconds: positiveInt.optional(),
    })
    .optional(),
});
export type GatewaySection = z.input<typeof GatewaySectionSchema>;

/** The gateway's settings after defaults. */
export interface GatewaySettings {
  readonly profile: string;
  readonly busyPolicy: BusyPolicy;
  readonly maxConcurrentTurns: number;
  readonly groupSessionsPerUser: boolean;
  readonly reset: {
    readonly policy: ResetPolicy;
    readonly idleMinutes: number;
    readonly dailyHour: number;
  };
  readonly agentCache: {
    readonly max: number;
    readonly idleTtlMs: number;
    readonly heapPressureRatio: number;
  };
  readonly hygiene: {
    readonly threshold: number;
    readonly maxMessages: number;
    readonly cooldownBaseMs: number;
    readonly cooldownMaxMs: number;
  };
  readonly approvalTimeoutMs: number;
  readonly allowedUsers: readonly string[];
  readonly allowAllUsers: boolean;
  readonly drainTimeoutMs: number;
  readonly stream: { readonly enabled: boolean; readonly editIntervalMs: number };
  readonly toolProgress: ToolProgress;
  readonly pairing: { readonly enabled: boolean; readonly codeTtlMs: number };
}

/** Hermes' numbers: see the package README for where each comes from. */
export const GATEWAY_DEFAULTS: GatewaySettings = {
  profile: 'default',
  busyPolicy: 'steer',
  maxConcurrentTurns: 16,
  groupSessionsPerUser: true,
  reset: { policy: 'none', idleMinutes: 1_440, dailyHour: 4 },
  agentCache: { max: 128, idleTtlMs: 3_600_000, heapPressureRatio: 0.8 },
  hygiene: {
    threshold: 0.85,
    maxMessages: 5_000,
    cooldownBaseMs: 300_000,
    cooldownMaxMs: 3_600_000,
  },
  approvalTimeoutMs: 300_000,
  allowedUsers: [],
  allowAllUsers: false,
  drainTimeoutMs: 60_000,
  stream: { enabled: true, editIntervalMs: 1_000 },
  toolProgress: 'all',
  pairing: { enabled: true, codeTtlMs: 3_600_000 },
};

/**
 * Validates the `gateway:` section (absent or `null` means all defaults) and applies defaults.
 * `toolProgress` falls back to `display.tool_progress` when the section does not set it.
 *
 * @throws ValidationError naming every bad key.
 */
export function resolveGatewaySettings(
  section: unknown,
  fallbacks: { readonly toolProgress?: ToolProgress } = {},
): GatewaySettings {
  const raw = parseOrThrow(
    GatewaySectionSchema,
    section ?? {},
    'gateway settings',
    'Fix the `gateway:` section of config.yaml; the gateway README lists every key.',
  );
  const d = GATEWAY_DEFAULTS;
  return {
    profile: raw.profile ?? d.profile,
    busyPolicy: raw.busy_policy ?? d.busyPolicy,
    maxConcurrentTurns: raw.max_concurrent_turns ?? d.maxConcurrentTurns,
    groupSessionsPerUser: raw.group_sessions_per_user ?? d.groupSessionsPerUser,
    reset: {
      policy: raw.reset?.policy ?? d.reset.policy,
      idleMinutes: raw.reset?.idle_minutes ?? d.reset.idleMinutes,
      dailyHour: raw.reset?.daily_hour ?? d.reset.dailyHour,
    },
    agentCache: {
      max: raw.agent_cache?.max ?? d.agentCache.max,
      idleTtlMs: seconds(raw.agent_cache?.idle_ttl_seconds) ?? d.agentCache.idleTtlMs,
      heapPressureRatio: raw.agent_cache?.heap_pressure_ratio ?? d.agentCache.heapPressureRatio,
    },
    hygiene: {
      threshold: raw.hygiene?.threshold ?? d.hygiene.threshold,
      maxMessages: raw.hygiene?.max_messages ?? d.hygiene.maxMessages,
      cooldownBaseMs: seconds(raw.hygiene?.cooldown_base_seconds) ?? d.hygiene.cooldownBaseMs,
      cooldownMaxMs: seconds(raw.hygiene?.cooldown_max_seconds) ?? d.hygiene.cooldownMaxMs,
    },
    approvalTimeoutMs: seconds(raw.approval_timeout_seconds) ?? d.approvalTimeoutMs,
    allowedUsers: raw.allowed_users ?? d.allowedUsers,
    allowAllUsers: raw.allow_all_users ?? d.allowAllUsers,
    drainTimeoutMs: seconds(raw.drain_timeout_seconds) ?? d.drainTimeoutMs,
    stream: {
      enabled: raw.stream?.enabled ?? d.stream.enabled,
      editIntervalMs: raw.stream?.edit_interval_ms ?? d.stream.editIntervalMs,
    },
    toolProgress: raw.tool_progress ?? fallbacks.toolProgress ?? d.toolProgress,
    pairing: {
      enabled: raw.pairing?.enabled ?? d.pairing.enabled,
      codeTtlMs: seconds(raw.pairing?.code_ttl_seconds) ?? d.pairing.codeTtlMs,
    },
  };
}

function seconds(value: number | undefined): number | undefined {
  return value === undefined ? undefined : value * 1_000;
}
