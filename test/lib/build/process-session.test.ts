import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverSources } from '../../../src/lib/discover.js';
import { assignSiblingAgents } from '../../../src/lib/build/open-session.js';
import { processSession } from '../../../src/lib/build/process-session.js';
import { createRenderCache } from '../../../src/lib/build/render-cache.js';
import { loadConfig } from '../../../src/schemas/config.js';
import { fixturePath, fixturesRoot, loadExpect, repoRoot } from '../../helpers/shared.js';

const work = mkdtempSync(join(tmpdir(), 'sp-process-session-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const E = loadExpect();
const config = loadConfig(repoRoot, { SESSIONPRESS_SOURCE: fixturesRoot });

describe('processSession', () => {
  it('stores a session small: its overview data and its problems go to the render cache, only their counts to the entry', async () => {
    const layout = await discoverSources(fixturesRoot);
    const owners = await assignSiblingAgents(layout);
    // The malformed fixture: a conversation with bad lines, so it has problems and prompts.
    const source = layout.sessions.find((s) => s.path === resolve(fixturePath(E.malformed.file)))!;
    expect(source).toBeDefined();
    const result = await processSession({
      source,
      projectRoot: repoRoot,
      cacheDir: work,
      root: fixturesRoot,
      siblingAgents: owners.get(source.sessionId) ?? [],
      cacheKey: 'k',
      redaction: config.redaction,
      render: { pageSize: config.pageSize, assetBase: '/a/', indexToolOutput: true, indexThinking: false },
    });
    if (!result.ok) throw new Error(`not processed: ${result.reason}`);
    expect(result.problems.length).toBeGreaterThanOrEqual(E.malformed.bad_lines.length);
    for (const b of E.malformed.bad_lines) expect(result.problems.some((d) => d.line === b.line)).toBe(true);

    // The entry counts the problems and has none of the lists that grow with a session.
    expect(result.data.diagnostics.total).toBe(result.problems.length);
    expect(Object.keys(result.data.diagnostics).sort()).toEqual(['badLines', 'sourceFile', 'total']);
    expect(result.data).not.toHaveProperty('toc');
    expect(result.data).not.toHaveProperty('overview');

    // The pages read them back from the render, as the worker had them.
    const details = await createRenderCache(work).readDetails('k');
    expect(details.problems).toEqual(result.problems);
    expect(details.toc.length).toBe(result.data.facts.promptCount);
    expect(details.toc.length).toBeGreaterThan(0);
    expect(details.overview).toMatchObject({ files: expect.any(Array), subagents: expect.any(Array), commits: expect.any(Array) });
  }, 60_000);
});
