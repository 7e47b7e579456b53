import type { ModelUsage } from '../transcript/types.js';

export interface PriceTable {
  asOf: string;
  currency: string;
  models: Array<{ match: string; input: number; output: number; cacheWrite: number; cacheRead: number }>;
}

/**
 * Estimated cost of one model's usage from a dated price table (per million
 * tokens). The first entry whose `match` occurs in the model id wins, so more
 * specific entries come first. Unknown models give undefined, never a guess.
 */
export function estimateCost(usage: ModelUsage, prices: PriceTable): number | undefined {
  const p = prices.models.find((m) => usage.model.includes(m.match));
  if (!p) return undefined;
  return (
    (usage.inputTokens * p.input + usage.outputTokens * p.output + usage.cacheCreationTokens * p.cacheWrite + usage.cacheReadTokens * p.cacheRead) /
    1_000_000
  );
}
