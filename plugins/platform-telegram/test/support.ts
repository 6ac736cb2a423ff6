/** Shared set-up: a fake Bot API and an adapter pointed at it, with a recording handler. */
import { join } from 'node:path';
import type { InboundMessage, PluginLogger } from '@hermes/plugin-sdk';
import { resolveTelegramSettings, TelegramAdapter } from '../src/index.ts';
import { FakeBotApi } from './fake-bot-api.ts';

export const TOKEN = '123456:SECRET-test-token-abcdefghijklmnop';

/** A logger that keeps its lines (and their details) for assertions. */
export class MemoryLogger implements PluginLogger {
  readonly lines: string[] = [];
  #add(level: string, message: string, details?: Readonly<Record<string, unknown>>): void {
    this.lines.push(`${level} ${message} ${details ? JSON.stringify(details) : ''}`);
  }
  debug(m: string, d?: Readonly<Record<string, unknown>>): void {
    this.#add('debug', m, d);
  }
  info(m: string, d?: Readonly<Record<string, unknown>>): void {
    this.#add('info', m, d);
  }
  warn(m: string, d?: Readonly<Record<string, unknown>>): void {
    this.#add('warn', m, d);
  }
  error(m: string, d?: Readonly<Record<string, unknown>>): void {
    this.#add('error', m, d);
  }
}

/** A connected adapter on a fresh fake; `received` fills as messages reach the handler. */
export async function connectedAdapter(
  settings: Record<string, unknown> = {},
  prepare: (api: FakeBotApi) => void = () => {},
) {
  const api = await new FakeBotApi(TOKEN).start();
  prepare(api);
  const log = new MemoryLogger();
  const adapter = new TelegramAdapter(
    resolveTelegramSettings({
      token: TOKEN,
      api_root: api.url,
      poll_timeout_seconds: 5,
      ...settings,
    }),
    log,
    join(process.env.HERMES_HOME as string, 'telegram-attachments'),
  );
  const received: InboundMessage[] = [];
  const waiters: Array<() => void> = [];
  await adapter.connect(async (message) => {
    received.push(message);
    for (const wake of waiters.splice(0)) wake();
  });
  /** Resolves once `count` messages have arrived. */
  const waitForReceived = async (count: number): Promise<InboundMessage[]> => {
    while (received.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    return received;
  };
  const close = async () => {
    await adapter.disconnect();
    await api.close();
  };
  return { api, adapter, log, received, waitForReceived, close };
}
