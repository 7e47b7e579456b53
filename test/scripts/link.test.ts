import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { main, SITE_NOT_SET } from '../../scripts/link.js';
import { corpusRoot, fixturesRoot, loadExpect, repoRoot } from '../helpers/shared.js';
import { fixtureSession, loadSessionFile } from '../helpers/sessions.js';
import { paginateTurns, shownCalls } from '../../src/lib/site/pages.js';

const E = loadExpect();
const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

function run(args: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  return main(args, (l) => lines.push(l)).then((code) => ({ code, lines }));
}

describe('npm run link', () => {
  it('prints the URL of a message on its page under the site and base, and a Markdown line', async () => {
    process.env.SESSIONPRESS_SOURCE = fixturesRoot;
    process.env.SESSIONPRESS_SITE = 'https://me.github.io';
    process.env.SESSIONPRESS_BASE = '/pub';
    const bs = E.branches_streaming;
    const r = await run([bs.session_id.slice(0, 8), '--message', bs.active_leaf_uuid.slice(0, 8)]);
    expect(r.code).toBe(0);
    expect(r.lines[0]).toMatch(new RegExp(`^https://me\\.github\\.io/pub/sessions/[a-z0-9-]+/${bs.session_id}/#m-`));
    expect(r.lines[0]).not.toContain(E.canary.username);
    expect(r.lines[1]).toMatch(/^\[.+\]\(https:\/\/me\.github\.io\/pub\/sessions\/.+\)$/);
  });

  it('links a prompt of the large session on the page that holds it', async () => {
    process.env.SESSIONPRESS_SOURCE = fixturesRoot;
    const r = await run([E.big.session_id.slice(0, 8), '--prompt', String(E.big.human_prompts)]);
    expect(r.code).toBe(0);
    // The page the build cuts (by prompts and by weight, src/lib/site/pages.ts) that holds the prompt, redacted as link reads it.
    const session = await fixtureSession(fixturesRoot, E.big.session_id);
    const pages = paginateTurns(session.turns, 40);
    const page = pages.findIndex((p) => p.some((t) => t.prompt && t.index === E.big.human_prompts)) + 1;
    expect(page).toBeGreaterThanOrEqual(Math.ceil(E.big.human_prompts / 40));
    expect(r.lines[0]).toMatch(new RegExp(`/sessions/[a-z0-9-]+/${E.big.session_id}/${page}/#m-`));
  });

  it('links a tool call of the large session (--tool, or a toolu_ id given to --message) on the page that shows it', async () => {
    process.env.SESSIONPRESS_SOURCE = fixturesRoot;
    const big = await loadSessionFile(fixturesRoot, E.big.file.replace(/^projects\//, ''));
    const lastTurn = big.turns[big.turns.length - 1];
    const call = lastTurn.messages.flatMap((m) => (m.kind === 'assistant' ? m.toolCalls : []))[0];
    expect(call.id).toMatch(/^toolu_/);
    const cut = paginateTurns((await fixtureSession(fixturesRoot, E.big.session_id)).turns, 40);
    const page = cut.findIndex((p) => p.some((t) => shownCalls(t.messages).some((c) => c.id === call.id))) + 1;
    expect(page).toBeGreaterThanOrEqual(Math.ceil(big.turns.length / 40));
    for (const args of [['--tool', call.id.slice(0, 16)], ['--message', call.id]]) {
      const r = await run([E.big.session_id.slice(0, 8), ...args]);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.lines[0]).toMatch(new RegExp(`/sessions/[a-z0-9-]+/${E.big.session_id}/${page}/#t-${call.id}$`));
      expect(r.lines[1]).toContain(`tool call ${call.id}`);
    }
    const none = await run([E.big.session_id.slice(0, 8), '--tool', 'toolu_zzzz']);
    expect(none.code).toBe(1);
    expect(none.lines[0]).toMatch(/no tool call .* starting with "toolu_zzzz"/);
  });

  it('fails clearly for an unknown session, an ambiguous prefix or a bad prompt number', async () => {
    process.env.SESSIONPRESS_SOURCE = fixturesRoot;
    expect((await run(['zzzzzz'])).lines[0]).toMatch(/no session id starts with "zzzzzz"/);
    const some = E.sessions[0].session_id;
    const bad = await run([some.slice(0, 8), '--prompt', 'x']);
    expect(bad.code).toBe(2);
    const far = await run([some.slice(0, 8), '--prompt', '999']);
    expect(far.code).toBe(1);
    expect(far.lines[0]).toMatch(/has no prompt 999/);
  });
});

const prFixtures = join(repoRoot, 'test', 'fixtures', 'pull-requests', 'projects');

describe('npm run link --pr', () => {
  it('prints the link of every session that touched a pull request, newest first, by number, label or URL', async () => {
    process.env.SESSIONPRESS_SOURCE = prFixtures;
    process.env.SESSIONPRESS_SITE = 'https://me.github.io';
    for (const query of ['42', '#42', 'acme/shop#42', 'https://github.com/acme/shop/pull/42']) {
      const r = await run(['--pr', query]);
      expect(r.code, query).toBe(0);
      expect(r.lines[0]).toBe('acme/shop#42 https://github.com/acme/shop/pull/42 — 2 sessions');
      const urls = r.lines.filter((l) => l.startsWith('https://me.github.io/'));
      // Session 2 (5 March) is newer than session 1 (1 March); session 3 has no pull request.
      expect(urls.map((u) => u.match(/\/([0-9a-f-]{36})\/$/)?.[1]?.slice(0, 8))).toEqual(['22222222', '11111111']);
      expect(r.lines.filter((l) => /^\[.+\]\(https:\/\/me\.github\.io\/sessions\/.+\)$/.test(l))).toHaveLength(2);
    }
    const docs = await run(['--pr', 'acme/docs#7']);
    expect(docs.lines.filter((l) => l.startsWith('https://me.github.io/'))).toHaveLength(1);
    const none = await run(['--pr', '999']);
    expect(none.code).toBe(1);
    expect(none.lines[0]).toMatch(/no session .* opened or updated pull request 999/);
    expect((await run(['--pr', '42', '1111'])).code).toBe(2);
  });

  it('finds the pr-link of the corpus agent-sessions fixture', async () => {
    process.env.SESSIONPRESS_SOURCE = join(corpusRoot, '-fixtures-agent-sessions');
    const prLine = readFileSync(join(corpusRoot, '-fixtures-agent-sessions', 'small.jsonl'), 'utf8').split('\n').find((l) => l.includes('"pr-link"'))!;
    const pr = JSON.parse(prLine) as { prNumber: number; prUrl: string };
    const r = await run(['--pr', pr.prUrl]);
    expect(r.code).toBe(0);
    expect(r.lines[0]).toContain(pr.prUrl);
    expect(r.lines.some((l) => l.endsWith('/small/'))).toBe(true);
  });
});

describe('npm run link without site', () => {
  it('prints a root-relative link and says that site is not set and how to set it', async () => {
    process.env.SESSIONPRESS_SOURCE = fixturesRoot;
    delete process.env.SESSIONPRESS_SITE;
    const ok = await run([E.branches_streaming.session_id.slice(0, 8)]);
    expect(ok.code).toBe(0);
    expect(ok.lines[0]).toMatch(/^\/sessions\//);
    expect(ok.lines.at(-1)).toBe(SITE_NOT_SET);
    expect(SITE_NOT_SET).toMatch(/"site" is not set.*sessionpress\.config\.json.*SESSIONPRESS_SITE/);
    process.env.SESSIONPRESS_SITE = 'https://me.github.io';
    expect((await run([E.branches_streaming.session_id.slice(0, 8)])).lines.join('\n')).not.toContain('is not set');
  });
});

describe('npm run link --key', () => {
  it('appends the key of the link slot before the anchor, the same key the build derives from the password and the site', async () => {
    const { createSlots, fromBase64Url, siteSalt, toBase64Url, unlockWithLink } = await import('../../src/lib/encrypt/crypto.js');
    const { argon2idNode, siteSecrets } = await import('../../src/lib/encrypt/site.js');
    process.env.SESSIONPRESS_SOURCE = fixturesRoot;
    process.env.SESSIONPRESS_SITE = 'https://me.github.io';
    process.env.SESSIONPRESS_BASE = '/pub';
    process.env.SESSIONPRESS_PASSWORD = 'a long password';
    const bs = E.branches_streaming;
    const r = await run([bs.session_id.slice(0, 8), '--message', bs.active_leaf_uuid.slice(0, 8), '--key']);
    expect(r.code).toBe(0);
    const m = /#k=([A-Za-z0-9_-]{43})&m-/.exec(r.lines.find((l) => l.startsWith('https://'))!);
    expect(m).not.toBeNull();
    expect(r.lines.join('\n')).toMatch(/without its password/);
    // The key opens the slots a build of this site with this password publishes, and is not the site key itself.
    const { siteKey, slots } = await createSlots('a long password', await siteSalt('https://me.github.io', '/pub/'), argon2idNode);
    const opened = await unlockWithLink(slots, fromBase64Url(m![1]));
    expect(opened && toBase64Url(opened)).toBe(toBase64Url(siteKey));
    expect(m![1]).not.toBe(toBase64Url((await siteSecrets('a long password', 'https://me.github.io', '/pub/')).siteKey));
  });

  it('asks for the password', async () => {
    process.env.SESSIONPRESS_SOURCE = fixturesRoot;
    delete process.env.SESSIONPRESS_PASSWORD;
    const r = await run([E.sessions[0].session_id.slice(0, 8), '--key']);
    expect(r.code).toBe(2);
    expect(r.lines[0]).toMatch(/SESSIONPRESS_PASSWORD/);
  });
});
