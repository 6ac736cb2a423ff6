/**
 * What the cron tests share: a config over a testkit scripted model, jobs due now, and a
 * loopback chat platform whose adapter records what it sends (resolving when a text arrives).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CronJob, DeliverTarget, JobStore, NewJob } from '@hermes/cron';
import {
  type InboundHandler,
  type InboundMessage,
  type OutboundMessage,
  PlatformAdapter,
  type PlatformCapabilities,
  type SendTarget,
  type SentMessage,
} from '@hermes/gateway';
import type { ScriptedServer } from '@hermes/testkit';
import { type HermesConfig, loadHermesConfig } from '../src/index.ts';

export const home = () => process.env.HERMES_HOME as string;

/** Writes config.yaml for the scripted model (plus `extra` lines) and loads it. */
export async function configFor(
  server: ScriptedServer,
  extra: readonly string[] = [],
): Promise<HermesConfig> {
  writeFileSync(
    join(home(), 'config.yaml'),
    [
      'model:',
      '  provider: openai',
      '  default: scripted-model',
      `  base_url: ${server.baseUrl('openai-chat')}`,
      ...extra,
      // No title request (chat agents): it would take one of the scripted answers.
      ...(extra.some((line) => line.startsWith('learning:'))
        ? []
        : ['learning:', '  titles: false']),
      '',
    ].join('\n'),
  );
  return loadHermesConfig({ hermesHome: home(), env: { OPENAI_API_KEY: 'sk-test-key-1234' } });
}

/** Stores a job due now (an hourly interval) with `overrides`. */
export function dueJob(
  store: JobStore,
  overrides: Partial<NewJob> & { readonly deliver?: DeliverTarget } = {},
): Promise<CronJob> {
  const now = Date.now();
  return store.create(
    {
      name: 'report',
      prompt: 'Write the daily report.',
      schedule: { kind: 'interval', minutes: 60 },
      scheduleText: 'every 1h',
      deliver: { kind: 'local' },
      nextRunAt: now - 1_000,
      ...overrides,
    },
    now,
  );
}

/** The tool names the model was offered in request `index`. */
export function offeredTools(server: ScriptedServer, index: number): string[] {
  const body = server.requests[index]?.body as
    | { tools?: { function: { name: string } }[] }
    | undefined;
  return (body?.tools ?? []).map((tool) => tool.function.name);
}

/** The tool messages of request `index`. */
export function toolMessages(server: ScriptedServer, index: number): string[] {
  const body = server.requests[index]?.body as
    | { messages: { role: string; content: unknown }[] }
    | undefined;
  return (body?.messages ?? [])
    .filter((message) => message.role === 'tool')
    .map((message) => JSON.stringify(message.content));
}

/** A chat platform in memory: `say` sends a message in, `sent` records what goes out. */
export class LoopbackAdapter extends PlatformAdapter {
  readonly platform = 'loopback';
  readonly sent: Array<{ target: SendTarget; text: string }> = [];
  #onMessage: InboundHandler | undefined;
  #waiters: Array<{ match: (text: string) => boolean; resolve: (text: string) => void }> = [];
  #next = 1;

  async connect(onMessage: InboundHandler): Promise<void> {
    this.#onMessage = onMessage;
  }

  async disconnect(): Promise<void> {
    this.#onMessage = undefined;
  }

  async send(target: SendTarget, message: OutboundMessage): Promise<SentMessage> {
    this.sent.push({ target, text: message.text });
    for (const waiter of this.#waiters.filter((w) => w.match(message.text))) {
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.resolve(message.text);
    }
    return { messageId: `sent-${this.sent.length}` };
  }

  capabilities(): PlatformCapabilities {
    return {
      maxMessageLength: 4_000,
      canEdit: false,
      supportsDrafts: false,
      hasOwnAccessPolicy: false,
      supportsThreads: true,
      supportsMarkdown: false,
    };
  }

  /** Resolves with the first text sent (before or after this call) that `match` accepts. */
  waitForSent(match: (text: string) => boolean): Promise<string> {
    const already = this.sent.find((message) => match(message.text));
    if (already) return Promise.resolve(already.text);
    return new Promise((resolve) => this.#waiters.push({ match, resolve }));
  }

  /** Hands a user's message to the gateway, as the platform would. */
  async say(text: string, from: Partial<InboundMessage> = {}): Promise<void> {
    if (!this.#onMessage) throw new Error('the loopback adapter is not connected');
    const id = this.#next++;
    await this.#onMessage({
      platform: 'loopback',
      chatId: 'room-1',
      userId: 'ada',
      text,
      messageId: `in-${id}`,
      receivedAt: Date.now(),
      isDirect: true,
      ...from,
    });
  }
}
