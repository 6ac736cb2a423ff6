/**
 * The models of an agent's side tasks. Each slot (compression, approval, title, review, vision,
 * web_extract) runs on its configured model, or on the main one (`auto`). When a slot's own
 * model fails or times out, the main model is asked once instead, so a misconfigured or down
 * auxiliary model degrades a side task's cost, never the task. Every call is metered per slot.
 */

import { parseOrThrow } from '@hermes/protocol';
import {
  type ChatOptions,
  type ChatRequest,
  type ChatResponse,
  type CreatedProvider,
  isAbortError,
  ModelProvider,
  ProviderConfigSchema,
} from '@hermes/providers';
import type { AuxiliaryConfig, AuxiliarySlot, AuxiliarySlotConfig } from './auxiliary-slots.js';
import { AuxiliaryUsageMeter, type SlotUsage } from './auxiliary-usage.js';

/** Builds a provider chain from an entry (`createProvider`, injected for tests). */
export type ProviderBuilder = (entry: Record<string, unknown>) => CreatedProvider;

/** What {@link AuxiliaryModels} is built from. */
export interface AuxiliaryModelsOptions {
  /** The agent's main provider chain and model: `auto` slots and the fallback use them. */
  readonly main: ModelProvider;
  readonly mainModel: string;
  readonly config?: AuxiliaryConfig;
  /** Builds a slot's own provider entry, at the slot's first call. */
  readonly build: ProviderBuilder;
}

/** A slot's own model, when it has one. */
interface OwnModel {
  readonly provider: ModelProvider;
  readonly model: string;
}

/**
 * One slot as a {@link ModelProvider}: `request.model` is replaced by the slot's model (see
 * {@link AuxiliaryProvider.model}), so callers write requests as for any provider.
 */
export class AuxiliaryProvider extends ModelProvider {
  readonly name: string;

  constructor(
    readonly slot: AuxiliarySlot,
    /** The model this slot asks first. */
    readonly model: string,
    private readonly own: (() => OwnModel) | undefined,
    private readonly main: { readonly provider: ModelProvider; readonly model: string },
    private readonly meter: AuxiliaryUsageMeter,
    private readonly timeoutMs: number | undefined,
  ) {
    super();
    this.name = `auxiliary-${slot}`;
  }

  /** Whether the slot runs on the main model (`auto`). */
  get isMain(): boolean {
    return this.own === undefined;
  }

  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    if (this.own === undefined) return this.#ask(this.main, request, options);
    try {
      return await this.#ask(this.own(), request, this.#withTimeout(options), false);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      this.meter.fellBack(this.slot);
      return this.#ask(this.main, request, options);
    }
  }

  async #ask(
    target: OwnModel,
    request: ChatRequest,
    options: ChatOptions,
    last = true,
  ): Promise<ChatResponse> {
    try {
      const response = await target.provider.chat({ ...request, model: target.model }, options);
      this.meter.answered(this.slot, response.model || target.model, response.usage);
      return response;
    } catch (error) {
      if (last && !isAbortError(error)) this.meter.failed(this.slot);
      throw error;
    }
  }

  #withTimeout(options: ChatOptions): ChatOptions {
    if (this.timeoutMs === undefined) return options;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    return { ...options, signal };
  }
}

/** Every slot of one agent, built on first use, with one usage meter. */
export class AuxiliaryModels {
  readonly #options: AuxiliaryModelsOptions;
  readonly #meter = new AuxiliaryUsageMeter();
  readonly #slots = new Map<AuxiliarySlot, AuxiliaryProvider>();
  readonly #built: CreatedProvider[] = [];

  /** @throws ValidationError when a slot's provider entry is malformed (checked now, built later). */
  constructor(options: AuxiliaryModelsOptions) {
    this.#options = options;
    for (const [slot, entry] of Object.entries(options.config ?? {})) {
      if (entry?.provider) {
        parseOrThrow(
          ProviderConfigSchema,
          entry.provider,
          `auxiliary.${slot} provider`,
          `Give auxiliary.${slot} a provider and model, or leave it out to use the main model.`,
        );
      }
    }
  }

  /** The provider of `slot` (the main model when the slot is not configured). */
  for(slot: AuxiliarySlot): AuxiliaryProvider {
    let provider = this.#slots.get(slot);
    if (!provider) {
      provider = this.#create(slot, this.#options.config?.[slot]);
      this.#slots.set(slot, provider);
    }
    return provider;
  }

  /** Tokens, cost, fallbacks and failures per slot used so far. */
  usage(): ReadonlyMap<AuxiliarySlot, SlotUsage> {
    return this.#meter.snapshot();
  }

  /** Closes the providers built for slots of their own (the main one is the agent's). */
  async close(): Promise<void> {
    await Promise.allSettled(this.#built.map((created) => created.provider.close()));
  }

  #create(slot: AuxiliarySlot, entry: AuxiliarySlotConfig | undefined): AuxiliaryProvider {
    const main = { provider: this.#options.main, model: this.#options.mainModel };
    const timeoutMs =
      entry?.timeoutSeconds === undefined ? undefined : entry.timeoutSeconds * 1_000;
    const { provider: ownEntry, model: ownModel } = entry ?? {};
    if (ownEntry) {
      let own: OwnModel | undefined;
      const lazy = () => {
        if (!own) {
          const created = this.#options.build(ownEntry);
          this.#built.push(created);
          own = { provider: created.provider, model: created.model };
        }
        return own;
      };
      return new AuxiliaryProvider(
        slot,
        String(ownEntry.model),
        lazy,
        main,
        this.#meter,
        timeoutMs,
      );
    }
    if (ownModel && ownModel !== main.model) {
      const own = { provider: main.provider, model: ownModel };
      return new AuxiliaryProvider(slot, ownModel, () => own, main, this.#meter, timeoutMs);
    }
    return new AuxiliaryProvider(slot, main.model, undefined, main, this.#meter, undefined);
  }
}
