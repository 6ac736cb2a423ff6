/**
 * Approval settings: the `approvals:` section of `HERMES_HOME/config.yaml`, validated with zod,
 * with Hermes's mode normalization (`false` → off, `true` → manual, unknown or empty → manual with
 * one warning, case and blanks ignored).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HermesError, parseOrThrow } from '@hermes/protocol';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

/** `smart` (default): an auxiliary model rules first; `manual`: always ask; `off`: allow. */
export const ApprovalModeSchema = z.enum(['smart', 'manual', 'off']);
export type ApprovalMode = z.infer<typeof ApprovalModeSchema>;

/** What an unattended surface (cron, single query, subagent) does with an `ask`. */
export const UnattendedPolicySchema = z.enum(['deny', 'approve']);
export type UnattendedPolicy = z.infer<typeof UnattendedPolicySchema>;

/** The resolved approval settings. */
export interface ApprovalSettings {
  readonly mode: ApprovalMode;
  /** Seconds to wait for a person before denying. */
  readonly timeoutSeconds: number;
  readonly cronMode: UnattendedPolicy;
  readonly singleQueryMode: UnattendedPolicy;
  readonly subagentMode: UnattendedPolicy;
  /** `approvals.deny` globs. */
  readonly deny: readonly string[];
  /** `approvals.command_allowlist` (plus a legacy top-level `command_allowlist`). */
  readonly commandAllowlist: readonly string[];
  /** Whether `SUDO_PASSWORD` is set (its value is never read into the settings). */
  readonly sudoPasswordConfigured: boolean;
  /** `--yolo` or `HERMES_YOLO_MODE`: approvals off. */
  readonly yolo: boolean;
}

/** The defaults: smart mode, 60 s, every unattended surface denies. */
export const DEFAULT_APPROVAL_SETTINGS: ApprovalSettings = {
  mode: 'smart',
  timeoutSeconds: 60,
  cronMode: 'deny',
  singleQueryMode: 'deny',
  subagentMode: 'deny',
  deny: [],
  commandAllowlist: [],
  sudoPasswordConfigured: false,
  yolo: false,
};

const stringList = z.array(z.string().min(1, 'entries must not be empty')).nullish();
const policy = z
  .preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), UnattendedPolicySchema)
  .nullish();

const ApprovalsSectionSchema = z.looseObject({
  mode: z.unknown().optional(),
  timeout: z.number().positive('timeout must be a positive number of seconds').nullish(),
  cron_mode: policy,
  single_query_mode: policy,
  subagent_mode: policy,
  deny: stringList,
  command_allowlist: stringList,
});

const ConfigSchema = z.looseObject({
  approvals: ApprovalsSectionSchema.nullish(),
  command_allowlist: stringList,
});

/**
 * Normalizes a raw `approvals.mode` value: absent → `smart`; `false` → `off`; `true` → `manual`;
 * a known name in any case and spacing → that mode; anything else → `manual`, reported once
 * through `warn`.
 */
export function normalizeApprovalMode(
  raw: unknown,
  warn: (message: string) => void = () => {},
): ApprovalMode {
  if (raw === undefined || raw === null) return 'smart';
  if (raw === false) return 'off';
  if (raw === true) return 'manual';
  const text = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  const parsed = ApprovalModeSchema.safeParse(text);
  if (parsed.success) return parsed.data;
  warn(
    `approvals.mode ${JSON.stringify(raw)} is not one of smart, manual, off; using manual ` +
      '(every flagged command asks a person). Fix approvals.mode in config.yaml.',
  );
  return 'manual';
}

const TRUTHY = new Set(['1', 'true', 'yes', 'on']);

/** Options of {@link loadApprovalSettings}. */
export interface LoadApprovalSettingsOptions {
  /** The environment for `SUDO_PASSWORD` and `HERMES_YOLO_MODE`; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Receives configuration warnings (an unknown mode). Default: ignored. */
  readonly onWarning?: (message: string) => void;
}

/** Reads `config.yaml` in `hermesHome` as a plain object (empty when the file is absent). */
export function readConfigFile(hermesHome: string): unknown {
  const path = join(hermesHome, 'config.yaml');
  if (!existsSync(path)) return {};
  try {
    return parseYaml(readFileSync(path, 'utf8')) ?? {};
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new HermesError(
      'approval.config_invalid',
      `Cannot read ${path}: it is not valid YAML (${detail}). Fix or remove the file.`,
      { cause: error },
    );
  }
}

/**
 * Loads the approval settings from `HERMES_HOME/config.yaml` (`approvals:` section), falling back
 * to {@link DEFAULT_APPROVAL_SETTINGS} for everything absent.
 *
 * @throws HermesError `approval.config_invalid` for unreadable YAML, and `validation.invalid_input`
 * naming each bad field.
 */
export function loadApprovalSettings(
  hermesHome: string,
  options: LoadApprovalSettingsOptions = {},
): ApprovalSettings {
  const env = options.env ?? process.env;
  const config = parseOrThrow(
    ConfigSchema,
    readConfigFile(hermesHome),
    `approval settings in ${join(hermesHome, 'config.yaml')}`,
    'Fix the approvals: section (mode, timeout, cron_mode, single_query_mode, deny, command_allowlist).',
  );
  const section = config.approvals ?? {};
  const d = DEFAULT_APPROVAL_SETTINGS;
  return {
    mode: normalizeApprovalMode(section.mode, options.onWarning),
    timeoutSeconds: section.timeout ?? d.timeoutSeconds,
    cronMode: section.cron_mode ?? d.cronMode,
    singleQueryMode: section.single_query_mode ?? d.singleQueryMode,
    subagentMode: section.subagent_mode ?? d.subagentMode,
    deny: section.deny ?? [],
    commandAllowlist: [
      ...new Set([...(section.command_allowlist ?? []), ...(config.command_allowlist ?? [])]),
    ],
    sudoPasswordConfigured: Boolean(env.SUDO_PASSWORD),
    yolo: TRUTHY.has((env.HERMES_YOLO_MODE ?? '').trim().toLowerCase()),
  };
}
