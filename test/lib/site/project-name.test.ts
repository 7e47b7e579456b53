import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSources } from '../../../src/lib/discover.js';
import { assignSiblingAgents, openSession } from '../../../src/lib/build/open-session.js';
import { projectName, redactedProjectFolder, sessionProjectName } from '../../../src/lib/site/project-name.js';
import { projectNames } from '../../../src/lib/site/collections.js';
import { projectSlugOf } from '../../../src/lib/site/slug.js';
import { corpusRoot, fixturesRoot, loadExpect, repoRoot } from '../../helpers/shared.js';

describe('projectName (documented folder encodings)', () => {
  it('names a project by the last meaningful parts of the folder it was started in', () => {
    // `/home/ada/work/docs-site` → folder `-home-ada-work-docs-site`; redacted: `-work-docs-site`, cwd `~/work/docs-site`.
    expect(projectName('-work-docs-site', '~/work/docs-site')).toBe('docs-site');
    expect(projectName('-clients-acme-api', '~/clients/acme/api')).toBe('acme/api');
    expect(projectName('-src-deep-manifest', '/src/deep-manifest')).toBe('deep-manifest');
  });

  it('uses the launch folder when the session moved into a subfolder or a worktree', () => {
    expect(projectName('-clients-acme-api', '~/clients/acme/api/web/src')).toBe('acme/api');
    expect(projectName('-clients-acme-api', '~/clients/acme/api/.claude/worktrees/agent-ab12')).toBe('acme/api');
  });

  it('never starts a name with a dash, even from a mangled cwd', () => {
    expect(projectName('-experiments-worktrees', '-experiments/worktrees')).toBe('experiments/worktrees');
    expect(projectName('-experiments-worktrees', '-experiments/worktrees/.claude/worktrees/agent-a4ca7529')).toBe('experiments/worktrees');
    expect(projectName('-experiments-worktrees')).toBe('experiments-worktrees');
  });

  it('decodes the folder as one name when no cwd belongs to it', () => {
    expect(projectName('-work-docs-site')).toBe('docs-site');
    expect(projectName('-fixtures-agentlogs', '/somewhere/else')).toBe('fixtures-agentlogs');
    expect(projectName('sample-project', '/path/to/Demo')).toBe('sample-project');
    expect(projectName('-home', '~')).toBe('home');
    expect(projectName('')).toBe('sessions');
  });

  it('handles Windows paths', () => {
    // `C:\Users\ada\src\api` → `C--Users-ada-src-api`; redacted `-src-api`, cwd `~\src\api`.
    expect(projectName(redactedProjectFolder('C--Users-ada-src-api', ['ada']), '~\\src\\api')).toBe('api');
  });

  it('takes the login name out of the folder like the URL slug does', () => {
    expect(redactedProjectFolder('-home-ada-work-api')).toBe('-work-api');
    expect(projectSlugOf('-home-ada-work-api')).toBe('work-api');
  });
});

describe('one name per project folder, on the corpus, the fixtures and the samples', () => {
  /** Every session of a tree, named as the build names it (open → redact → model → name). */
  async function namesOf(root: string): Promise<Map<string, { names: Set<string>; usernames: Set<string>; entries: Array<{ data: any }> }>> {
    const layout = await discoverSources(root);
    const owners = await assignSiblingAgents(layout);
    const out = new Map<string, { names: Set<string>; usernames: Set<string>; entries: Array<{ data: any }> }>();
    for (const source of layout.sessions) {
      const opened = await openSession(source, { root: layout.root, owners, redaction: {} });
      if (!opened.result.ok) continue;
      const redactor = opened.redactor!;
      const projectPath = redactor.redactText(opened.result.session.facts.projectPath);
      const name = sessionProjectName(source.projectFolder, projectPath, redactor);
      const slot = out.get(source.projectFolder) ?? { names: new Set(), usernames: new Set(), entries: [] };
      slot.names.add(name);
      for (const u of redactor.knownUsernames()) slot.usernames.add(u);
      slot.entries.push({ data: { projectSlug: projectSlugOf(source.projectFolder), projectName: name, slug: source.sessionId, facts: opened.result.session.facts } });
      out.set(source.projectFolder, slot);
    }
    return out;
  }

  for (const [label, root] of [
    ['corpus', corpusRoot],
    ['fixtures', fixturesRoot],
    ['samples', join(repoRoot, 'content', 'sessions')],
  ] as const) {
    it(`${label}: every folder has one name, without a leading dash or a login name`, async () => {
      const folders = await namesOf(root);
      expect(folders.size).toBe(readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory() && folders.has(d.name)).length);
      expect(folders.size).toBeGreaterThan(0);
      for (const [folder, { names, usernames, entries }] of folders) {
        expect([...names], folder).toHaveLength(1);
        const [name] = names;
        expect(name, folder).not.toMatch(/^-/);
        expect(name, folder).not.toMatch(/(^|\/)-/);
        expect(name.trim(), folder).not.toBe('');
        for (const u of usernames) if (u.length >= 3) expect(name.toLowerCase().split(/[/-]/), `${folder}: ${u}`).not.toContain(u.toLowerCase());
        expect(projectNames(entries).get(projectSlugOf(folder))).toBe(name);
      }
    }, 120_000);
  }

  it('fixtures: the planted login name never reaches a name', async () => {
    const canary = loadExpect().canary;
    const username: string = canary.username;
    expect(typeof username).toBe('string');
    const folders = await namesOf(fixturesRoot);
    for (const { names } of folders.values()) for (const n of names) expect(n).not.toContain(username);
  }, 120_000);
});

describe('projectNames', () => {
  it('keeps one name per project slug: the most common, ties to the newest session', () => {
    const e = (slug: string, name: string, ts: string) => ({ data: { projectSlug: 'p', projectName: name, slug, facts: { lastTimestamp: ts } as any } });
    expect(projectNames([e('a', 'x', '2026-01-01'), e('b', 'y', '2026-01-02'), e('c', 'x', '2026-01-03')]).get('p')).toBe('x');
    expect(projectNames([e('a', 'x', '2026-01-01'), e('b', 'y', '2026-01-02')]).get('p')).toBe('y');
  });
});
