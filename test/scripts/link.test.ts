import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../scripts/link.js';
import { fixturesRoot, loadExpect } from '../helpers/shared.js';

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
    expect(r.lines[0]).toMatch(new RegExp(`/sessions/[a-z0-9-]+/${E.big.session_id}/${Math.ceil(E.big.human_prompts / 40)}/#m-`));
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
