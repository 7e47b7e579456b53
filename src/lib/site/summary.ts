/**
 * How the overview and the session cards word their facts: tool tallies,
 * paths, costs. Plain text; the components escape it.
 */
import { countOf } from '../format.js';
import type { ModelUsage } from '../transcript/types.js';
import { usageCost, type PriceTable } from './cost.js';

export { countOf };

/** "3 Read · 2 Bash · 1 Edit", the `max` most used tools, then "+ 2 more" for the other tools. */
export function formatTally(tools: Array<[string, number]>, max = 4): string {
  const shown = tools.slice(0, max).map(([name, n]) => `${n} ${name}`);
  const rest = tools.length - shown.length;
  return rest > 0 ? `${shown.join(' · ')} · ${rest} more tool${rest === 1 ? '' : 's'}` : shown.join(' · ');
}

/** A path inside the project, relative to it (`src/app.ts`); any other path as it is. */
export function projectRelative(path: string, projectPath: string): string {
  const root = projectPath.replace(/\/+$/, '');
  return root && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

export interface CostEstimate {
  /** Sum over the models whose cost is known, stated or estimated, in the table's currency. */
  total: number;
  /** The part of `total` the records state (gateways' `usage.cost`); the rest is estimated at list prices. */
  stated: number;
  /** Models in the usage that have neither a stated cost nor a price in the table. */
  unpriced: string[];
}

/** A session's cost: what the records state, plus estimates for the models with a known price, and which models have neither. */
export function sessionCost(usage: ModelUsage[], prices: PriceTable): CostEstimate {
  let total = 0;
  let stated = 0;
  const unpriced: string[] = [];
  for (const u of usage) {
    // A model that used no tokens (`<synthetic>` messages) costs nothing, priced or not.
    if (u.inputTokens + u.outputTokens + u.cacheCreationTokens + u.cacheReadTokens === 0 && !u.statedCost) continue;
    const cost = usageCost(u, prices);
    if (cost === undefined) {
      if (!unpriced.includes(u.model)) unpriced.push(u.model);
      continue;
    }
    total += cost.amount;
    if (cost.stated) stated += cost.amount;
  }
  return { total, stated, unpriced };
}

/** The currency sign a cost is written with. */
function currencySign(currency: string): string {
  return currency === 'USD' ? '$' : `${currency} `;
}

/** A stated cost as the records give it, to a hundredth of a cent: `$0.0873`, `$1.20`. */
export function formatStatedCost(amount: number, currency = 'USD'): string {
  return `${currencySign(currency)}${amount.toFixed(4).replace(/0{1,2}$/, '')}`;
}

/** An estimate: `≈ $1.23`, or `< $0.01`. */
export function formatEstimate(amount: number, currency = 'USD'): string {
  const sign = currencySign(currency);
  return amount < 0.01 ? `< ${sign}0.01` : `≈ ${sign}${amount.toFixed(2)}`;
}

/**
 * A session's cost in words: "≈ $1.23", "< $0.01", "$0.0873 stated + ≈ $1.23",
 * "≈ $1.23 + price unknown" or "price unknown"; empty when there was no usage at all.
 */
export function formatCost(cost: CostEstimate, currency = 'USD'): string {
  const estimated = cost.total - cost.stated;
  const parts = [
    cost.stated > 0 ? `${formatStatedCost(cost.stated, currency)} stated` : '',
    estimated > 1e-9 ? formatEstimate(estimated, currency) : '',
    cost.unpriced.length ? 'price unknown' : '',
  ];
  return parts.filter(Boolean).join(' + ');
}

/**
 * A session's cost in words: Claude Code's own running total when the
 * session recorded one (a `cost-state` line, 2.1.2xx: it knows prices and
 * discounts an estimate does not), else the stated and estimated parts.
 */
export function sessionCostText(facts: { usage: ModelUsage[]; recordedCost?: { totalCostUSD: number } }, prices: PriceTable): string {
  if (facts.recordedCost && prices.currency === 'USD') return `${formatStatedCost(facts.recordedCost.totalCostUSD)} recorded`;
  return formatCost(sessionCost(facts.usage, prices), prices.currency);
}

/** Only web links are followed from an overview: anything else is shown as text. */
export function isWebUrl(url: string): boolean {
  return /^https?:\/\/[^\s]+$/i.test(url);
}

/** A model id as a card shows it: `claude-opus-4-5-20251101` → `opus-4-5`. */
export function shortModel(model: string): string {
  return model.replace(/^claude-/, '').replace(/-\d{8}$/, '');
}

/** The UTC day (`2026-01-21`) a session started on, or empty when its time is unknown. */
export function sessionDay(iso: string | undefined): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  return Number.isNaN(t) ? '' : new Date(t).toISOString().slice(0, 10);
}
