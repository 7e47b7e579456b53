import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSources } from '../../../src/lib/discover.js';
import { assignSiblingAgents, openSession } from '../../../src/lib/build/open-session.js';
import { checkoutParts, repositoryFolder, sessionProject, worktreeOrigin, type SessionProject } from '../../../src/lib/site/session-project.js';
import { groupByProject, movedProjects } from '../../../src/lib/site/collections.js';
import { sessionProjectName } from '../../../src/lib/site/project-name.js';
import { folderSlugOf, projectSlugOf, sessionEntryId } from '../../../src/lib/site/slug.js';
import type { SessionFacts } from '../../../src/lib/transcript/types.js';
import { corpusRoot, fixturesRoot, repoRoot } from '../../helpers/shared.js';

const fixtureRoot = join(repoRoot, 'test', 'fixtures', 'format-2.1.2xx');
const E = JSON.parse(readFileSync(join(fixtureRoot, 'EXPECT.worktrees.json'), 'utf8'));

/** Facts as the model gives them, for the pure checks. */
const facts = (worktree?: SessionFacts['worktree'], gitBranches: string[] = []) => ({ worktree, gitBranches });

/** The words of a label, joined the way the page shows them. */
const label = (p: SessionProject) => (p.checkout ? checkoutParts(p.checkout).map((x) => `${x.label} ${x.value}`).join(' · ') : undefined);

interface Opened {
  folder: string;
  sessionId: string;
  project: SessionProject;
  facts: SessionFacts;
  usernames: string[];
  /** The name of the session's own folder, as before worktrees moved anywhere. */
  folderName: string;
}

/** Every session of some folders of a tree, put in its project as the build does (open → redact → model → project). */
async function projectsOf(root: string, folders?: string[]): Promise<Opened[]> {
  const layout = await discoverSources(root);
  const owners = await assignSiblingAgents(layout);
  const out: Opened[] = [];
  for (const source of layout.sessions) {
    if (folders && !folders.includes(source.projectFolder)) continue;
    const opened = await openSession(source, { root: layout.root, owners, redaction: {} });
    if (!opened.result.ok) continue;
    const redactor = opened.redactor!;
    const s = opened.result.session;
    const projectPath = redactor.redactText(s.facts.projectPath);
    out.push({
      folder: source.projectFolder,
      sessionId: s.sessionId,
      project: sessionProject(source.projectFolder, projectPath, s.facts, redactor),
      facts: s.facts,
      usernames: redactor.knownUsernames(),
      folderName: sessionProjectName(source.projectFolder, projectPath, redactor),
    });
  }
  return out;
}

describe('worktreeOrigin (redacted folder, cwd and facts)', () => {
  it('takes a session started in <repo>/.worktrees/<name> to the repository, named and branched from its cwd', () => {
    const o = worktreeOrigin('-work-lantern--worktrees-101-cjk-blns', '~/work/lantern/.worktrees/101-cjk-blns', facts(undefined, ['fix/cjk']));
    expect(o?.checkout).toEqual({ worktree: '101-cjk-blns', branch: 'fix/cjk' });
    expect(o?.repository).toEqual({ path: '~/work/lantern', folder: '-work-lantern', swap: { cut: '--worktrees-101-cjk-blns', add: '' } });
  });

  it('takes <repo>/.claude/worktrees/<name> and a subfolder of it to the same folder of the repository', () => {
    expect(worktreeOrigin('-srv-api--claude-worktrees-x', '/srv/api/.claude/worktrees/x', facts(undefined, ['HEAD', 'wt-x']))).toEqual({
      checkout: { worktree: 'x', branch: 'wt-x' },
      repository: { path: '/srv/api', folder: '-srv-api', swap: { cut: '--claude-worktrees-x', add: '' } },
    });
    // Started in `web/` of the worktree: its project in the main checkout is `web/` of the repository.
    const sub = worktreeOrigin('-api--claude-worktrees-x-web', '~/api/.claude/worktrees/x/web/src', facts());
    expect(sub?.repository?.path).toBe('~/api/web');
    expect(sub?.repository?.folder).toBe('-api-web');
  });

  it('handles Windows paths', () => {
    const o = worktreeOrigin('-src-api--worktrees-fix', '~\\src\\api\\.worktrees\\fix', facts(undefined, ['fix']));
    expect(o?.repository?.path).toBe('~\\src\\api');
    expect(o?.repository?.folder).toBe('-src-api');
  });

  it('goes by the folder name when no cwd fits the folder', () => {
    const o = worktreeOrigin('-work-lantern--claude-worktrees-tidy', undefined, facts(undefined, ['worktree-tidy']));
    expect(o).toEqual({ checkout: { worktree: 'tidy', branch: 'worktree-tidy' }, repository: { folder: '-work-lantern', swap: { cut: '--claude-worktrees-tidy', add: '' } } });
    expect(worktreeOrigin('-work-lantern--worktrees-a', '/elsewhere', facts())?.repository?.folder).toBe('-work-lantern');
  });

  it('follows a worktree-state line that names the folder, wherever the worktree is', () => {
    const w = { path: '~/wt/lantern-render-fix', name: 'render-fix', enteredFrom: '~/work/lantern' };
    const o = worktreeOrigin('-wt-lantern-render-fix', '~/wt/lantern-render-fix', facts(w, ['render-fix']));
    expect(o?.checkout).toEqual({ worktree: 'render-fix', branch: 'render-fix' });
    // Both under the home folder: the raw folder keeps its home part, the rest is the repository's.
    expect(o?.repository).toEqual({ path: '~/work/lantern', folder: '-work-lantern', swap: { cut: '-wt-lantern-render-fix', add: '-work-lantern' } });
    expect(repositoryFolder('-home-ada-wt-lantern-render-fix', o!.repository!)).toBe('-home-ada-work-lantern');
    // Sharing only the root: the repository's redacted folder.
    const apart = worktreeOrigin('-tmp-wt-x', undefined, facts({ path: '/tmp/wt/x', branch: 'x', enteredFrom: '~/work/lantern' }));
    expect(apart?.repository).toEqual({ path: '~/work/lantern', folder: '-work-lantern' });
    expect(repositoryFolder('-tmp-wt-x', apart!.repository!)).toBe('-work-lantern');
  });

  it('labels a session that entered a worktree while it ran, without moving it', () => {
    const w = { path: '~/work/shop/.claude/worktrees/feat-ports', branch: 'feat/ports', name: 'feat-ports', enteredFrom: '~/work/shop' };
    expect(worktreeOrigin('-work-shop', '~/work/shop', facts(w, ['main']))).toEqual({ checkout: { worktree: 'feat-ports', branch: 'feat/ports' } });
    // A worktree-state line naming the folder but no repository (a hook's folder, no `originalCwd`): a label only.
    expect(worktreeOrigin('-wt-x', '~/wt/x', facts({ path: '~/wt/x', branch: 'x' }))).toEqual({ checkout: { worktree: 'x', branch: 'x' } });
  });

  it('leaves ordinary folders alone, even ones named after worktrees', () => {
    expect(worktreeOrigin('-experiments-worktrees', '-experiments/worktrees', facts(undefined, ['master']))).toBeUndefined();
    expect(worktreeOrigin('-work-worktrees-tool', '~/work/worktrees-tool', facts())).toBeUndefined();
    expect(worktreeOrigin('-work-api', '~/work/api/.claude/worktrees/agent-ab12', facts())).toBeUndefined();
  });
});

describe('repositoryFolder', () => {
  it('cuts the worktree off the raw folder, so the repository keeps its own login-name removal', () => {
    const o = worktreeOrigin('-b-work-api--worktrees-x', undefined, facts())!;
    // A login name with a dash: the folder alone cannot tell, and the repository's own slug is `b-work-api`.
    expect(projectSlugOf(repositoryFolder('-home-ada-b-work-api--worktrees-x', o.repository!))).toBe(projectSlugOf('-home-ada-b-work-api'));
  });
});

describe('sessionProject on the format-2.1.2xx worktree fixtures', async () => {
  const opened = await projectsOf(fixtureRoot, E.folders);

  it('opens every session the EXPECT file lists', () => {
    expect(opened.map((o) => o.sessionId).sort()).toEqual(Object.keys(E.sessions).sort());
  });

  it('puts each session in its repository project, under the name the repository gets', () => {
    for (const o of opened) {
      const want = E.sessions[o.sessionId];
      expect(o.project.projectSlug, o.sessionId).toBe(want.project);
      expect(o.project.projectName, o.sessionId).toBe(E.projects[want.project].name);
    }
  });

  it('keeps each URL on the session folder slug', () => {
    for (const o of opened) expect(`/sessions/${sessionEntryId(projectSlugOf(o.folder), o.sessionId)}/`).toBe(E.sessions[o.sessionId].url);
  });

  it('labels worktree sessions with the worktree and branch, and the repository session with none', () => {
    for (const o of opened) {
      const want = E.sessions[o.sessionId];
      expect(label(o.project), o.sessionId).toBe(want.label);
      expect(o.project.checkout?.worktree, o.sessionId).toBe(want.worktree);
      expect(o.project.checkout?.branch, o.sessionId).toBe(want.branch);
    }
  });

  it('never carries the login name in a slug, a name or a label', () => {
    expect(opened.some((o) => o.usernames.includes(E.username))).toBe(true);
    for (const o of opened) expect(JSON.stringify(o.project).toLowerCase(), o.sessionId).not.toContain(E.username);
  });

  it('groups them by repository and redirects each worktree folder to its project', () => {
    const entries = opened.map((o) => ({
      data: { slug: sessionEntryId(projectSlugOf(o.folder), o.sessionId), projectSlug: o.project.projectSlug, projectName: o.project.projectName, facts: o.facts },
    }));
    const groups = groupByProject(entries);
    expect(Object.fromEntries(groups.map((g) => [g.slug, { name: g.name, sessions: g.sessions.map((s) => s.data.slug.split('/')[1]) }]))).toEqual(E.projects);
    expect(Object.fromEntries(movedProjects(entries))).toEqual(E.moved);
  });
});

describe('sessionProject on the corpus, the shared fixtures and the samples', async () => {
  const corpus = await projectsOf(corpusRoot);

  it('-experiments-worktrees, which works in agent worktrees from the repository, stays its own unlabelled project', () => {
    const own = corpus.filter((o) => o.folder === '-experiments-worktrees');
    expect(own.length).toBeGreaterThan(0);
    // The session did move into a `.claude/worktrees/` checkout: its branches show it.
    expect(own.some((o) => o.facts.gitBranches.some((b) => b.startsWith('worktree-')))).toBe(true);
    for (const o of own) {
      expect(o.project.projectSlug).toBe(projectSlugOf(o.folder));
      expect(o.project.checkout).toBeUndefined();
    }
  });

  it('-fixtures-agent-sessions stays its own project; the session with worktree-state lines is labelled from the last', () => {
    const own = corpus.filter((o) => o.folder === '-fixtures-agent-sessions');
    const entered = own.filter((o) => o.facts.worktree);
    expect(entered.length).toBeGreaterThan(0);
    for (const o of own) expect(o.project.projectSlug).toBe(projectSlugOf(o.folder));
    for (const o of entered) {
      expect(o.project.checkout).toEqual({ worktree: o.facts.worktree!.name, branch: o.facts.worktree!.branch });
    }
  });

  for (const [label, root] of [
    ['corpus', corpusRoot],
    ['fixtures', fixturesRoot],
    ['samples', join(repoRoot, 'content', 'sessions')],
  ] as const) {
    it(`${label}: no folder there is a worktree's, so every session keeps its folder's project and name`, async () => {
      const all = label === 'corpus' ? corpus : await projectsOf(root);
      expect(all.length).toBeGreaterThan(0);
      for (const o of all) {
        expect(o.project.projectSlug, o.folder).toBe(projectSlugOf(o.folder));
        expect(o.project.projectName, o.folder).toBe(o.folderName);
      }
    }, 120_000);
  }
});

describe('movedProjects', () => {
  const e = (slug: string, projectSlug: string, ts: string) => ({ data: { slug, projectSlug, facts: { lastTimestamp: ts } as SessionFacts } });

  it('maps a folder slug that names no project to the project of its newest session', () => {
    const moved = movedProjects([e('repo/1', 'repo', '2026-01-01'), e('repo-wt/2', 'repo', '2026-01-02'), e('odd/3', 'other', '2026-01-04'), e('odd/4', 'repo', '2026-01-03')]);
    expect(Object.fromEntries(moved)).toEqual({ 'repo-wt': 'repo', odd: 'other' });
  });

  it('never redirects a folder slug that is still a project', () => {
    expect(movedProjects([e('a/1', 'a', '2026-01-01'), e('b/2', 'a', '2026-01-02'), e('b/3', 'b', '2026-01-03')]).size).toBe(0);
    expect(folderSlugOf('work-lantern/a2140001')).toBe('work-lantern');
  });
});
