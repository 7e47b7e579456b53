/**
 * How the overview and the session cards word their facts: tool tallies,
 * paths, costs. Plain text; the components escape it.
 */
import { countOf } from '../format.js';
import type { ModelUsage } from '../transcript/types.js';
import { estimateCost, type PriceTable } from './cost.js';

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
  /** Sum over the models whose price is known, in the table's currency. */
  total: number;
  /** Models in the usage that have no price in the table. */
  unpriced: string[];
}

/** The estimated cost of a session's usage: what is known, and which models have no price. */
export function sessionCost(usage: ModelUsage[], prices: PriceTable): CostEstimate {
  let total = 0;
  const unpriced: string[] = [];
  for (const u of usage) {
    // A model that used no tokens (`<synthetic>` messages) costs nothing, priced or not.
    if (u.inputTokens + u.outputTokens + u.cacheCreationTokens + u.cacheReadTokens === 0) continue;
    const cost = estimateCost(u, prices);
    if (cost === undefined) unpriced.push(u.model);
    else total += cost;
  }
  return { total, unpriced };
}

/** "≈ $1.23", "< $0.01", "≈ $1.23 + price unknown" or "price unknown"; empty when there was no usage at all. */
export function formatCost(cost: CostEstimate, currency = 'USD'): string {
  const sign = currency === 'USD' ? '$' : `${currency} `;
  const known = cost.total > 0 ? (cost.total < 0.01 ? `< ${sign}0.01` : `≈ ${sign}${cost.total.toFixed(2)}`) : '';
  if (!cost.unpriced.length) return known;
  return known ? `${known} + price unknown` : 'price unknown';
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
