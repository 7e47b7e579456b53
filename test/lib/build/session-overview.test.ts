import { describe, expect, it } from 'vitest';
import { commitMessageFromCommand, isGitCommit } from '../../../src/lib/build/session-overview.js';
import { formatCost, formatTally, projectRelative, sessionCost, shortModel } from '../../../src/lib/site/summary.js';
import type { ToolCall } from '../../../src/lib/transcript/types.js';
import prices from '../../../src/data/prices.json';

const bash = (command: string): ToolCall => ({ id: 't', name: 'Bash', input: { command }, entryUuid: 'e' });

describe('commits in Bash calls', () => {
  it('finds git commit in a chain of commands, and nothing else', () => {
    expect(isGitCommit(bash('git add -A && git commit -m "Fix it"'))).toBe(true);
    expect(isGitCommit(bash('git -C repo commit -am wip'))).toBe(true);
    expect(isGitCommit(bash('git log --grep commit'))).toBe(false);
    expect(isGitCommit(bash('echo "git is nice"; npm run commitlint'))).toBe(false);
    expect(isGitCommit({ ...bash('git commit -m x'), name: 'Read' })).toBe(false);
  });

  it('reads the message from -m, --message=, -am and a heredoc, first line only', () => {
    expect(commitMessageFromCommand('git add . && git commit -m "Add the settle command"')).toBe('Add the settle command');
    expect(commitMessageFromCommand("git commit -m 'single quoted' -m 'body'")).toBe('single quoted');
    expect(commitMessageFromCommand('git commit --message="with \\"quotes\\" inside"')).toBe('with "quotes" inside');
    expect(commitMessageFromCommand('git commit -am wip')).toBe('wip');
    const heredoc = `git commit -m "$(cat <<'EOF'\nRemind once per plant\n\nLonger body.\nEOF\n)"`;
    expect(commitMessageFromCommand(heredoc)).toBe('Remind once per plant');
    expect(commitMessageFromCommand('git commit --amend --no-edit')).toBeUndefined();
  });
});

describe('how the overview and the cards word their facts', () => {
  it('tallies the most used tools and says how many more', () => {
    expect(formatTally([['Read', 3], ['Bash', 2], ['Edit', 1]])).toBe('3 Read · 2 Bash · 1 Edit');
    expect(formatTally([['A', 5], ['B', 4], ['C', 3], ['D', 2], ['E', 1]], 4)).toBe('5 A · 4 B · 3 C · 2 D · 1 more tool');
    expect(formatTally([['A', 5], ['B', 4], ['C', 3]], 1)).toBe('5 A · 2 more tools');
    expect(formatTally([])).toBe('');
  });

  it('estimates cost from the price table and says when a model has no price', () => {
    const usage = (model: string, inputTokens: number) => ({ model, messages: 1, inputTokens, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0 });
    const known = prices.models[0].match;
    const priced = sessionCost([usage(`claude-${known}-20990101`, 1_000_000)], prices);
    expect(priced).toEqual({ total: prices.models[0].input, stated: 0, unpriced: [] });
    expect(formatCost(priced)).toBe(`≈ $${prices.models[0].input.toFixed(2)}`);
    const unknown = sessionCost([usage('some-other-model', 1000)], prices);
    expect(formatCost(unknown)).toBe('price unknown');
    expect(formatCost(sessionCost([usage(`claude-${known}`, 1_000_000), usage('some-other-model', 10)], prices))).toMatch(/^≈ \$\d+\.\d\d \+ price unknown$/);
    // A model that used no tokens costs nothing, priced or not.
    expect(formatCost(sessionCost([usage('<synthetic>', 0)], prices))).toBe('');
    expect(formatCost(sessionCost([usage(`claude-${known}`, 10)], prices))).toBe('< $0.01');
  });

  it('shortens model ids and paths inside the project', () => {
    expect(shortModel('claude-opus-4-5-20251101')).toBe('opus-4-5');
    expect(shortModel('gpt-x')).toBe('gpt-x');
    expect(projectRelative('~/projects/app/src/a.ts', '~/projects/app')).toBe('src/a.ts');
    expect(projectRelative('~/projects/application/a.ts', '~/projects/app')).toBe('~/projects/application/a.ts');
    expect(projectRelative('/tmp/x', '')).toBe('/tmp/x');
  });
});
