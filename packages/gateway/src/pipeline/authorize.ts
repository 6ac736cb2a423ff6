/**
 * Step 1: may this person talk to the agent? Per-platform allow-all, then the global allow-all,
 * then paired users, the platform's allowlist and the global allowlist; anyone else is denied.
 * Adapters whose platform decides access itself (an API key, a workspace) skip the step: the
 * gateway asks the capability, never the platform's name.
 */
import type { InboundMessage } from '../messages.js';
import type { PairingStore } from '../pairing/pairing-store.js';
import type { PlatformAdapter } from '../platform-adapter.js';
import type { GatewaySettings } from '../settings/gateway-settings.js';
import type { PlatformSettings } from '../settings/platform-settings.js';
import { PAIRING_FULL, pairingNotice } from './notices.js';

/** Why a message was let through. */
export type AllowedBy =
  | 'own-access-policy'
  | 'platform-allow-all'
  | 'global-allow-all'
  | 'paired'
  | 'platform-allowlist'
  | 'global-allowlist';

/** The authorization step's verdict. */
export type Authorization =
  | { readonly allowed: true; readonly by: AllowedBy }
  | { readonly allowed: false };

/** What the step reads. */
export interface AuthorizeDeps {
  readonly settings: GatewaySettings;
  /** `platforms.<name>` for the message's platform; absent means no platform-level rules. */
  readonly platform: PlatformSettings | undefined;
  readonly pairing: PairingStore;
}

/** Decides whether `message` may reach the agent. The first rule that allows it wins. */
export async function authorize(
  message: InboundMessage,
  adapter: PlatformAdapter,
  deps: AuthorizeDeps,
): Promise<Authorization> {
  if (adapter.capabilities(message.chatId).hasOwnAccessPolicy) {
    return { allowed: true, by: 'own-access-policy' };
  }
  if (deps.platform?.allowAllUsers) return { allowed: true, by: 'platform-allow-all' };
  if (deps.settings.allowAllUsers) return { allowed: true, by: 'global-allow-all' };
  if (await deps.pairing.isApproved(message.platform, message.userId)) {
    return { allowed: true, by: 'paired' };
  }
  if (deps.platform?.allowedUsers.includes(message.userId)) {
    return { allowed: true, by: 'platform-allowlist' };
  }
  if (deps.settings.allowedUsers.includes(message.userId)) {
    return { allowed: true, by: 'global-allowlist' };
  }
  return { allowed: false };
}

/**
 * What to tell a denied person: in a DM with pairing on, their pairing code (or that the queue
 * is full); nothing while they are rate-limited, and nothing in groups, where a bot answering
 * every stranger would be noise.
 */
export async function pairingReply(
  message: InboundMessage,
  deps: Pick<AuthorizeDeps, 'settings' | 'pairing'> & { readonly clock: () => number },
): Promise<string | undefined> {
  if (!message.isDirect || !deps.settings.pairing.enabled) return undefined;
  const issued = await deps.pairing.issue(message.platform, message.userId, message.userName);
  switch (issued.kind) {
    case 'code':
      return pairingNotice(message.platform, issued.code, issued.expiresAt - deps.clock());
    case 'full':
      return PAIRING_FULL;
    case 'rate_limited':
      return undefined;
  }
}
