import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import prices from '../../../src/data/prices.json' with { type: 'json' };
import { estimateCost, type PriceTable } from '../../../src/lib/site/cost.js';
import type { ModelUsage } from '../../../src/lib/transcript/types.js';
import { discoverSources } from '../../../src/lib/discover.js';
import { assignSiblingAgents, openSession } from '../../../src/lib/build/open-session.js';
import { corpusRoot, repoRoot } from '../../helpers/shared.js';

const table: PriceTable = { asOf: 'x', currency: 'USD', models: [{ match: 'opus-4-5', input: 5, output: 25, cacheWrite: 6.25, cacheWrite1h: 10, cacheRead: 0.5 }] };
const base: ModelUsage = { model: 'claude-opus-4-5-20251101', messages: 2, inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0 };

describe('cost of the 2.1.x usage fields', () => {
  it('prices 1-hour cache writes at their own price, the rest at the 5-minute price', () => {
    expect(estimateCost({ ...base, cacheCreationTokens: 3_000_000, cacheCreation1hTokens: 1_000_000 }, table)).toBeCloseTo(2 * 6.25 + 10);
  });

  it('does not add thinking tokens twice (they are part of the output)', () => {
    expect(estimateCost({ ...base, outputTokens: 1_000_000, thinkingTokens: 400_000 }, table)).toBe(25);
  });

  it('says "unknown" for fast mode without a known factor, and for unknown models', () => {
    expect(estimateCost({ ...base, inputTokens: 10, fastMessages: 1 }, table)).toBeUndefined();
    expect(estimateCost({ ...base, model: 'claude-sonnet-5' }, table)).toBeUndefined();
  });

  it('never prices a newer model by an older family entry (opus-4-x is not Opus 4)', () => {
    const p = prices as PriceTable;
    expect(estimateCost({ ...base, model: 'claude-opus-4-7' }, p)).toBeUndefined();
    expect(estimateCost({ ...base, model: 'claude-opus-4-20250514' }, p)).toBeDefined();
  });

  it('gives every model of the real corpus a dated price, or none (shown as "price unknown")', async () => {
    const layout = await discoverSources(corpusRoot);
    const owners = await assignSiblingAgents(layout);
    const seen = new Set<string>();
    for (const s of layout.sessions) {
      const o = await openSession(s, { root: corpusRoot, owners, redaction: false });
      if (o.result.ok) for (const u of o.result.session.facts.usage) seen.add(u.model);
    }
    expect(seen.size).toBeGreaterThan(3);
    for (const model of seen) {
      const cost = estimateCost({ ...base, model, inputTokens: 1000 }, prices as PriceTable);
      // A number from a dated entry, or undefined: shown as "price unknown", never a silent zero.
      expect(cost === undefined || (Number.isFinite(cost) && cost > 0), model).toBe(true);
    }
    expect(readFileSync(join(repoRoot, 'src', 'data', 'prices.json'), 'utf8')).toMatch(/"asOf": "\d{4}-\d{2}-\d{2}"/);
  });
});

describe('usage of a fallback request', () => {
  it('counts each iteration for the model that served it', async () => {
    const root = join(repoRoot, 'test', 'fixtures', 'format-2.1');
    const E = JSON.parse(readFileSync(join(root, 'EXPECT.json'), 'utf8'));
    const layout = await discoverSources(root);
    const owners = await assignSiblingAgents(layout);
    const s = layout.sessions.find((x) => x.sessionId === E.sessions.everything)!;
    const o = await openSession(s, { root, owners, redaction: false });
    if (!o.result.ok) throw new Error('no page');
    const usage = o.result.session.facts.usage;
    // The fallback message (served by opus) lists a first, failed sonnet-5 iteration: each counts for its own model.
    for (const [model, tokens] of Object.entries(E.inputTokensByModel)) expect(usage.find((u) => u.model === model)?.inputTokens, model).toBe(tokens);
  });
});
