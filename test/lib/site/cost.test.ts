import { describe, expect, it } from 'vitest';
import { usageCost, type PriceTable } from '../../../src/lib/site/cost.js';
import { formatCost, formatStatedCost, sessionCost } from '../../../src/lib/site/summary.js';
import type { ModelUsage } from '../../../src/lib/transcript/types.js';

/**
 * Costs of models reached through a gateway (2.1.2xx `usage.cost`): the figure
 * the records state is shown as stated, the price table estimates the models it
 * knows, and a model with neither gets no number at all.
 */
const table: PriceTable = { asOf: '2026-11-01', currency: 'USD', models: [{ match: 'haiku-4-5', input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 }] };
const row = (model: string, extra: Partial<ModelUsage> = {}): ModelUsage => ({ model, messages: 1, inputTokens: 1_000_000, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, ...extra });

describe('the cost of one usage row', () => {
  it('is the stated cost when the records give one, even for a model the table knows', () => {
    expect(usageCost(row('openai/gpt-5', { provider: 'openrouter', statedCost: 0.0873 }), table)).toEqual({ amount: 0.0873, stated: true });
    expect(usageCost(row('claude-haiku-4-5', { statedCost: 0.5 }), table)).toEqual({ amount: 0.5, stated: true });
  });

  it('is estimated from the table otherwise, and unknown when the table has no price', () => {
    expect(usageCost(row('claude-haiku-4-5'), table)).toEqual({ amount: 1, stated: false });
    expect(usageCost(row('moonshotai/kimi-k2', { provider: 'openrouter' }), table)).toBeUndefined();
  });
});

describe("a session's cost in words", () => {
  it('adds stated costs and estimates, says which is which, and never prices an unknown model', () => {
    const cost = sessionCost([row('openai/gpt-5', { statedCost: 0.0873 }), row('claude-haiku-4-5'), row('moonshotai/kimi-k2')], table);
    expect(cost).toEqual({ total: 1.0873, stated: 0.0873, unpriced: ['moonshotai/kimi-k2'] });
    expect(formatCost(cost)).toBe('$0.0873 stated + ≈ $1.00 + price unknown');
  });

  it('says "stated" alone when every figure is stated', () => {
    expect(formatCost(sessionCost([row('openai/gpt-5', { statedCost: 0.04 }), row('deepseek/deepseek-v3.2', { statedCost: 0.0035 })], table))).toBe('$0.0435 stated');
  });

  it('counts a stated row even without tokens, and lists an unpriced model once', () => {
    expect(sessionCost([row('x/y', { inputTokens: 0, statedCost: 0.01 })], table).stated).toBe(0.01);
    expect(sessionCost([row('x/z', { provider: 'a' }), row('x/z', { provider: 'b' })], table).unpriced).toEqual(['x/z']);
  });

  it('writes a stated cost to a hundredth of a cent', () => {
    expect(formatStatedCost(0.0873)).toBe('$0.0873');
    expect(formatStatedCost(1.2)).toBe('$1.20');
    expect(formatStatedCost(0.125)).toBe('$0.125');
    expect(formatStatedCost(2, 'EUR')).toBe('EUR 2.00');
  });
});
