import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, listFiles } from '../helpers/build.js';
import { fixturesRoot } from '../helpers/shared.js';

/** The user's config is read once by the integration and reaches every page through the virtual module. */
describe('site built with a configured title', () => {
  const title = 'Team Atlas: reviewed Claude sessions';
  let root = '';
  let out = '';
  let log = '';
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'sp-config-'));
    out = join(root, 'dist');
    const configFile = join(root, 'sessionpress.config.json');
    writeFileSync(configFile, JSON.stringify({ title, source: fixturesRoot, base: '/atlas' }));
    const run = await buildSite(out, { SESSIONPRESS_CONFIG: configFile, SESSIONPRESS_NOTES: join(root, 'no-notes') });
    log = run.log;
    expect(run.code, log).toBe(0);
  });
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const doc = (file: string) => new JSDOM(readFileSync(file, 'utf8')).window.document;

  it('shows the title in the header and the index, and after the title of a session page', () => {
    const index = doc(join(out, 'index.html'));
    expect(index.querySelector('header.site .brand')?.textContent).toBe(title);
    expect(index.title).toBe(title);
    const session = listFiles(join(out, 'sessions')).find((f) => f.endsWith('index.html'))!;
    const page = doc(session);
    expect(page.querySelector('header.site .brand')?.textContent).toBe(title);
    const own = page.querySelector('h1')?.textContent ?? '';
    expect(own).not.toBe('');
    expect(page.title).toBe(`${own} · ${title}`);
    expect(readFileSync(session, 'utf8')).not.toContain('>Sessionpress<');
  });

  it('takes base from the same config: every session link starts with it', () => {
    const index = doc(join(out, 'index.html'));
    const links = [...index.querySelectorAll('a[href*="/sessions/"]')].map((a) => a.getAttribute('href')!);
    expect(links.length).toBeGreaterThan(0);
    for (const href of links) expect(href.startsWith('/atlas/sessions/')).toBe(true);
  });
});
