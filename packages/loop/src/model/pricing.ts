/**
 * A small price table for cost estimates (USD per million tokens). Estimates only: providers bill
 * what they bill. Unknown models cost 0 and say so through `knownPrice`.
 */
import type { Usage } from '@hermes/protocol';

/** Prices per million tokens. */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
}

const PRICES: ReadonlyArray<readonly [RegExp, ModelPrice]> = [
  [/claude-(opus-4|4-opus)/, { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 }],
  [
    /claude-(sonnet-4|4-sonnet|3-7-sonnet|3-5-sonnet)/,
    { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  ],
  [/claude-(haiku-4|3-5-haiku)/, { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }],
  [/gpt-4o-mini/, { input: 0.15, output: 0.6, cacheRead: 0.075 }],
  [/gpt-4o/, { input: 2.5, output: 10, cacheRead: 1.25 }],
  [/gpt-4\.1-mini/, { input: 0.4, output: 1.6, cacheRead: 0.1 }],
  [/gpt-4\.1/, { input: 2, output: 8, cacheRead: 0.5 }],
  [/gpt-5-mini/, { input: 0.25, output: 2, cacheRead: 0.025 }],
  [/gpt-5/, { input: 1.25, output: 10, cacheRead: 0.125 }],
  [/o4-mini|o3-mini/, { input: 1.1, output: 4.4, cacheRead: 0.275 }],
];

/** The price of `model`, when the table knows it. */
export function knownPrice(model: string): ModelPrice | undefined {
  const id = model.toLowerCase();
  return PRICES.find(([pattern]) => pattern.test(id))?.[1];
}

/** Estimated cost of `usage` on `model`, in USD; 0 for unknown models. */
export function estimateCostUsd(model: string, usage: Usage): number {
  const price = knownPrice(model);
  if (!price) return 0;
  const perToken = (perMillion: number | undefined, tokens: number) =>
    ((perMillion ?? price.input) * tokens) / 1_000_000;
  return (
    perToken(price.input, usage.inputTokens) +
    perToken(price.output, usage.outputTokens) +
    perToken(price.cacheRead, usage.cacheReadTokens) +
    perToken(price.cacheWrite, usage.cacheWriteTokens)
  );
}
