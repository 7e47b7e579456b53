import { readFileSync, rmSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, listFiles, readAllText } from '../helpers/build.js';
import { loadExpect } from '../helpers/shared.js';
import { prFixtureRoot, shareSource } from './share-source.js';

/**
 * Sessions with `pr-link` lines: a badge in the session header and on the
 * session's card, and the pull-requests page listing each PR with the sessions
 * that touched it, newest first. PRs are read from the fixture files here, not
 * from the build's own model.
 */
const E = loadExpect();
const out = mkdtempSync(join(tmpdir(), 'sp-prs-'));
let source: string;

function page(rel: string): Document {
  return new JSDOM(readFileSync(join(out, rel), 'utf8')).window.document;
}

function sessionPage(id: string): Document {
  const file = listFiles(join(out, 'sessions')).find((f) => f.endsWith(`/${id}/index.html`));
  if (!file) throw new Error(`no page for ${id}`);
  return new JSDOM(readFileSync(file, 'utf8')).window.document;
}

/** pr-link lines of a fixture file: number, URL and repository, and the session id. */
function prLinks(root: string, project: string): Array<{ sessionId: string; prNumber: number; prUrl: string; prRepository: string; timestamp: string }> {
  return listFiles(join(root, project))
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.includes('"pr-link"')).map((l) => JSON.parse(l)));
}

beforeAll(async () => {
  source = shareSource(['-fixtures-agent-sessions']);
  const run = await buildSite(out, { SESSIONPRESS_SOURCE: source });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
}, 600_000);

afterAll(() => {
  for (const d of [out, `${out}-cache`, source]) if (d) rmSync(d, { recursive: true, force: true });
});

describe('pull requests on the site', () => {
  const links = prLinks(prFixtureRoot, '-home-demo-work-shop');

  it('shows a badge for each PR in the header of each session that touched it, and none elsewhere', () => {
    expect(links.length).toBeGreaterThanOrEqual(3);
    const byId = new Map<string, Set<string>>();
    for (const l of links) byId.set(l.sessionId, (byId.get(l.sessionId) ?? new Set()).add(`${l.prRepository}#${l.prNumber}`));
    for (const [id, prs] of byId) {
      const badges = [...sessionPage(id).querySelectorAll('.session-header .pr-badge')];
      expect(badges.map((b) => b.textContent!.replace(/^\s*PR\s*/, '').trim()).sort()).toEqual([...prs].sort());
      for (const b of badges) expect(links.map((l) => l.prUrl)).toContain(b.getAttribute('href'));
    }
    expect(sessionPage('33333333-aaaa-4bbb-8ccc-000000000003').querySelectorAll('.pr-badge')).toHaveLength(0);
  });

  it('shows the badge on the session card', () => {
    const cards = [...page('index.html').querySelectorAll('li.card')];
    const card = cards.find((c) => c.querySelector('a')?.getAttribute('href')?.includes('22222222-aaaa'));
    expect(card?.querySelectorAll('.pr-badge').length).toBe(new Set(links.filter((l) => l.sessionId.startsWith('22222222')).map((l) => l.prUrl)).size);
    const none = cards.find((c) => c.querySelector('a')?.getAttribute('href')?.includes('33333333-aaaa'));
    expect(none?.querySelectorAll('.pr-badge').length).toBe(0);
  });

  it('lists each PR with repository, number and link, and the sessions that touched it newest first', () => {
    const doc = page('pull-requests/index.html');
    const items = [...doc.querySelectorAll('.pr-item')];
    const corpusLinks = prLinks(source, '-fixtures-agent-sessions');
    const urls = new Set([...links, ...corpusLinks].map((l) => l.prUrl));
    expect(items.map((i) => i.getAttribute('data-pr-url')).sort()).toEqual([...urls].sort());
    const shop = items.find((i) => i.getAttribute('data-pr-url') === 'https://github.com/acme/shop/pull/42')!;
    expect(shop.querySelector('.pr-repo')?.textContent).toBe('acme/shop');
    expect(shop.querySelector('.pr-number')?.textContent).toBe('#42');
    expect(shop.querySelector('h2 a.pr-link')?.getAttribute('href')).toBe('https://github.com/acme/shop/pull/42');
    // Newest first: the session of 5 March before the one of 1 March (the fixture's timestamps).
    const ids = [...shop.querySelectorAll('[data-session-id]')].map((li) => li.getAttribute('data-session-id'));
    const touching = links.filter((l) => l.prNumber === 42).map((l) => ({ id: l.sessionId, t: l.timestamp }));
    expect(ids).toEqual(touching.sort((a, b) => b.t.localeCompare(a.t)).map((x) => x.id));
    // PRs ordered by their newest session: non-increasing times down the page.
    const times = items.map((i) => i.querySelector('time')?.getAttribute('datetime') ?? '');
    expect([...times].sort().reverse()).toEqual(times);
    expect(doc.body.textContent).not.toContain(E.canary.username);
  });

  it('shows the fixture\'s planted fake token nowhere, redacted like any other', () => {
    const fixtureText = listFiles(prFixtureRoot).map((f) => readFileSync(f, 'utf8')).join('\n');
    const token = /ghp_[A-Za-z0-9]{36}/.exec(fixtureText)![0];
    expect(readAllText(out).filter((f) => f.text.includes(token)).map((f) => f.file)).toEqual([]);
    expect(sessionPage('11111111-aaaa-4bbb-8ccc-000000000001').body.textContent).toContain('[REDACTED:github-token]');
  });

  it('links the page from the site navigation', () => {
    const nav = [...page('index.html').querySelectorAll('header.site nav a')].map((a) => a.getAttribute('href'));
    expect(nav).toContain('/pull-requests/');
    expect(nav).toContain('/insights/');
  });
});
