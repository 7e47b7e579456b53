import type { ModelUsage } from '../transcript/types.js';

export interface PriceTable {
  asOf: string;
  currency: string;
  models: Array<{
    match: string;
    input: number;
    output: number;
    /** 5-minute cache write. */
    cacheWrite: number;
    /** 1-hour cache write; the 5-minute price when the table has none. */
    cacheWrite1h?: number;
    cacheRead: number;
    /** Price factor of `fast` mode; without one, fast usage has no known price. */
    fastMultiplier?: number;
  }>;
}

/**
 * Estimated cost of one model's usage from a dated price table (per million
 * tokens). The first entry whose `match` occurs in the model id wins, so more
 * specific entries come first. Cache writes are priced by lifetime (1h writes
 * cost more); thinking tokens are part of the output tokens. Unknown models,
 * and `fast` mode without a known factor, give undefined, never a guess.
 */
export function estimateCost(usage: ModelUsage, prices: PriceTable): number | undefined {
  const p = prices.models.find((m) => usage.model.includes(m.match));
  if (!p) return undefined;
  const fast = usage.fastMessages ?? 0;
  if (fast > 0 && p.fastMultiplier === undefined) return undefined;
  const write1h = Math.min(usage.cacheCreation1hTokens ?? 0, usage.cacheCreationTokens);
  const write5m = usage.cacheCreationTokens - write1h;
  const base =
    (usage.inputTokens * p.input + usage.outputTokens * p.output + write5m * p.cacheWrite + write1h * (p.cacheWrite1h ?? p.cacheWrite) + usage.cacheReadTokens * p.cacheRead) /
    1_000_000;
  // Fast messages are not told apart token by token: the factor applies to the share of messages.
  return fast > 0 ? base * (1 + ((p.fastMultiplier! - 1) * fast) / Math.max(usage.messages, 1)) : base;
}

/** What one usage row cost, and whether the records state it or the price table estimates it. */
export interface UsageCost {
  amount: number;
  /** The records state it (`usage.cost` of a gateway, USD); otherwise an estimate at list prices. */
  stated: boolean;
}

/**
 * The cost of one model's usage: as the records state it when they do (models
 * reached through a gateway), else estimated from the price table; undefined
 * when neither is known (never a guess).
 */
export function usageCost(usage: ModelUsage, prices: PriceTable): UsageCost | undefined {
  if (usage.statedCost !== undefined) return { amount: usage.statedCost, stated: true };
  const amount = estimateCost(usage, prices);
  return amount === undefined ? undefined : { amount, stated: false };
}
