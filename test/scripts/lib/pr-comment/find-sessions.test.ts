import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findPullRequestSessions, repositoryRoot } from '../../../../scripts/lib/pr-comment/find-sessions.js';
import { pullRequestFile } from '../../../fixtures/github-api.js';
import { repoRoot } from '../../../helpers/shared.js';

const FORMAT21 = join(repoRoot, 'test', 'fixtures', 'format-2.1');
const E = JSON.parse(readFileSync(join(FORMAT21, 'EXPECT.json'), 'utf8'));

// A checked-out repository with the sessions in `.claude-sessions/`, and a 2.0.x sibling agent file of one of them.
const work = mkdtempSync(join(tmpdir(), 'sessionpress-pr-find-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
mkdirSync(join(work, '.git'));
const source = join(work, '.claude-sessions');
cpSync(FORMAT21, source, { recursive: true });
const project = `.claude-sessions/${E.projectFolder}`;
writeFileSync(
  join(source, E.projectFolder, 'agent-sib01.jsonl'),
  `${JSON.stringify({ type: 'user', isSidechain: true, agentId: 'sib01', sessionId: E.sessions.command, uuid: 'sib-1', parentUuid: null, timestamp: '2026-10-05T09:00:00.000Z', message: { role: 'user', content: 'Look around' } })}\n`,
);

const find = (number: number, files: ReturnType<typeof pullRequestFile>[]) =>
  findPullRequestSessions({ sourceDir: source, repoRoot: repositoryRoot(source, '/nowhere'), owner: 'acme', repo: 'shop', number, htmlUrl: `https://github.com/acme/shop/pull/${number}`, files, redaction: {} });

describe('findPullRequestSessions', () => {
  it('finds the repository a source folder is in', () => {
    expect(repositoryRoot(source, '/nowhere')).toBe(work);
    expect(repositoryRoot(tmpdir(), '/nowhere')).toBe('/nowhere');
  });

  it('maps a changed kept output, sidecar or sibling agent file to its session; a removed file or a session with no page to none', async () => {
    const found = await find(99, [
      pullRequestFile(`${project}/${E.sessions.everything}/tool-results/${E.persisted.toolUseId}.txt`, 'modified'),
      pullRequestFile(`${project}/agent-sib01.jsonl`, 'added'),
      pullRequestFile(`${project}/${E.sessions.progress}.jsonl`, 'removed'),
      pullRequestFile(`${project}/${E.sessions.randomBytes}.jsonl`, 'modified'),
      pullRequestFile('src/app.ts', 'modified'),
    ]);
    expect(found.map((f) => [f.opened.result.session.sessionId, f.reasons])).toEqual([
      [E.sessions.everything, ['files']],
      [E.sessions.command, ['files']],
    ]);
  });

  it('finds a session by its pr-link alone, by number and repository or by the pull request page', async () => {
    const [pr] = E.pullRequests;
    const found = await find(pr.number, []);
    expect(found.map((f) => [f.opened.result.session.sessionId, f.reasons])).toEqual([[E.sessions.everything, ['pr-link']]]);
    // Its sidecar too: both reasons.
    const both = await find(pr.number, [pullRequestFile(`${project}/${E.sessions.everything}/subagents/agent-${E.sidecarAgent.agentId}.meta.json`, 'renamed', 'old.json')]);
    expect(both[0].reasons).toEqual(['pr-link', 'files']);
    // Another repository's #42 is not this one.
    const other = await findPullRequestSessions({ sourceDir: source, repoRoot: work, owner: 'acme', repo: 'other', number: pr.number, files: [], redaction: {} });
    expect(other).toEqual([]);
  });

  it('opens the sessions redacted', async () => {
    const [f] = await find(E.pullRequests[0].number, []);
    const text = JSON.stringify(f.opened.result.session.messages);
    for (const secret of Object.values(E.secrets) as string[]) expect(text).not.toContain(secret);
    expect(text).not.toContain(`/home/${E.username}`);
  });
});
