/**
 * Delivery of a job's answer through a running gateway: the gateway's `deliver` step, with its
 * delivery ledger (a send cut off by a restart is resent) and its retries.
 */
import { type ChatTarget, CronDelivery, type CronJob } from '@hermes/cron';
import type { SendTarget } from '@hermes/gateway';

/** The gateway's delivery step: `Gateway.deliver`. */
export type GatewayDeliver = (platform: string, target: SendTarget, text: string) => Promise<void>;

/** A live {@link CronDelivery} through a gateway. */
export class GatewayCronDelivery extends CronDelivery {
  /** A gateway is there: the answer is sent now. */
  readonly live = true;
  readonly #deliver: GatewayDeliver;

  constructor(deliver: GatewayDeliver) {
    super();
    this.#deliver = deliver;
  }

  /**
   * Sends `text` to `target`'s chat (and thread).
   *
   * @throws what the gateway throws: `gateway.no_adapter` when no adapter serves the platform,
   *   or the send's failure after its retries.
   */
  async deliver(target: ChatTarget, text: string, _job: CronJob): Promise<void> {
    await this.#deliver(
      target.platform,
      { chatId: target.chatId, ...(target.threadId ? { threadId: target.threadId } : {}) },
      text,
    );
  }
}
