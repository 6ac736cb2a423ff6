/** The error a pool raises when none of its keys may be used right now. */
import { HermesError } from '@hermes/protocol';
import type { ClassifiedError, FailureReason } from '../classified-error.js';

/** The code of {@link NoCredentialsError}. */
export const NO_CREDENTIALS_CODE = 'provider.no_credentials';

/** Facts behind a {@link NoCredentialsError}; all secret-free. */
export interface NoCredentialsFacts {
  readonly provider: string;
  /** Keys configured for the provider. */
  readonly total: number;
  /** Keys cooling down. */
  readonly exhausted: number;
  /** Keys permanently rejected. */
  readonly dead: number;
  /** Epoch ms when the first cooling key becomes usable again, when one is cooling. */
  readonly earliestReadyAt?: number;
  /** The failure that benched that key, when known. */
  readonly earliestReason?: FailureReason;
  /** The current time, epoch ms, to phrase the wait. */
  readonly now: number;
}

/**
 * No key of a pool is usable: all cooling down, dead, or none configured. It carries a
 * `classified` verdict like a {@link ProviderError} does (so `isProviderError` accepts it and
 * the fallback chain can move on): `shouldFallback` is set, rotation is pointless, and
 * `retryAfterMs` says when the earliest cooldown ends. The message says the same in words.
 */
export class NoCredentialsError extends HermesError {
  readonly classified: ClassifiedError;

  constructor(facts: NoCredentialsFacts) {
    const classified = classifyNoCredentials(facts);
    super(NO_CREDENTIALS_CODE, describeNoCredentials(facts), {
      retryable: false,
      details: { ...facts, classified },
    });
    this.classified = classified;
  }
}

function classifyNoCredentials(facts: NoCredentialsFacts): ClassifiedError {
  const waitMs =
    facts.earliestReadyAt === undefined
      ? undefined
      : Math.max(0, facts.earliestReadyAt - facts.now);
  const reason: FailureReason =
    waitMs !== undefined
      ? (facts.earliestReason ?? 'rate_limit')
      : facts.dead > 0
        ? 'auth_permanent'
        : 'auth';
  return {
    reason,
    retryable: false,
    shouldCompress: false,
    shouldRotateCredential: false,
    shouldFallback: true,
    ...(waitMs === undefined ? {} : { retryAfterMs: waitMs }),
    message: describeNoCredentials(facts),
  };
}

function describeNoCredentials(facts: NoCredentialsFacts): string {
  const { provider, total, exhausted, dead, earliestReadyAt, now } = facts;
  if (total === 0) {
    return `No API key is configured for ${provider}: add one in config or the environment.`;
  }
  const parts: string[] = [];
  if (exhausted > 0 && earliestReadyAt !== undefined) {
    const at = new Date(earliestReadyAt).toISOString();
    parts.push(
      `${exhausted} cooling down (the first is usable again at ${at}, in ${formatWait(earliestReadyAt - now)})`,
    );
  }
  if (dead > 0) parts.push(`${dead} rejected permanently (reset them once the key is fixed)`);
  return `No API key for ${provider} is usable right now: ${parts.join('; ')}.`;
}

/** "1h 5m", "4m 12s", "30s": a wait a person can read. */
function formatWait(ms: number): string {
  const totalSeconds = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes}m ${seconds}s`;
  return `${seconds}s`;
}
