/**
 * The auxiliary slots of a host that shares tools between many agents (the gateway): the shared
 * `vision_analyze` and `web_extract` cannot use one agent's slots, so they use the host's, built
 * from the same configuration at their first call.
 */
import { AuxiliaryModels } from '@hermes/loop';
import { type CreatedProvider, createProvider } from '@hermes/providers';
import type { HermesConfig } from '../config/hermes-config.js';

type ProviderInput = Parameters<typeof createProvider>[0];

/** The host's slots (built on first use) and how to release them. */
export interface HostAuxiliary {
  readonly slots: () => AuxiliaryModels;
  close(): Promise<void>;
}

/** Slots on `config.auxiliary`, falling back to the configured main model. */
export function hostAuxiliary(config: HermesConfig): HostAuxiliary {
  let main: CreatedProvider | undefined;
  let slots: AuxiliaryModels | undefined;
  return {
    slots() {
      if (!slots) {
        main = createProvider(config.provider as ProviderInput);
        slots = new AuxiliaryModels({
          main: main.provider,
          mainModel: main.model,
          ...(config.auxiliary ? { config: config.auxiliary } : {}),
          build: (entry) => createProvider(entry as ProviderInput),
        });
      }
      return slots;
    },
    async close() {
      await slots?.close();
      await main?.provider.close();
    },
  };
}
