import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite, listFiles, type BuildRun } from '../helpers/build.js';
import { repoRoot } from '../helpers/shared.js';

/**
 * `npm run build` with nothing changed since the last successful build is
 * answered in one line without starting Astro (scripts/lib/last-build.ts);
 * anything the build reads or wrote that changed makes it build again.
 */
const work = mkdtempSync(join(tmpdir(), 'sp-up-to-date-'));
const source = join(work, 'source');
const out = join(work, 'site');
const outside = join(work, 'outside.jsonl');
const config = join(work, 'sessionpress.config.json');
cpSync(join(repoRoot, 'content', 'sessions'), source, { recursive: true });
writeFileSync(config, JSON.stringify({ title: 'Up to date' }));
const env = { SESSIONPRESS_SOURCE: source, SESSIONPRESS_CONFIG: config };

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  rmSync(`${out}-cache`, { recursive: true, force: true });
});

const SKIPPED = /^Nothing changed since the last build: \S+ is up to date \(\d+ session files?, [\d.]+ MB, checked in [\d.]+ s; --force builds it again\)\.$/;
const skipped = (run: BuildRun) => run.code === 0 && run.log.split('\n').filter((l) => l.trim()).every((l) => SKIPPED.test(l)) && SKIPPED.test(run.log.trim());
/** Built by Astro: its own closing line. */
const built = (run: BuildRun) => run.code === 0 && /\[build\] Complete!/.test(run.log);
const site = () => new Map(listFiles(out).map((f) => [f, readFileSync(f, 'latin1')]));
const sessionFile = () => listFiles(source).find((f) => f.endsWith('.jsonl') && !/agent-/.test(f))!;

describe('a rebuild with nothing changed', () => {
  it('is answered without building, and every change to what the build reads or wrote builds again', async () => {
    const cold = await buildSite(out, env);
    expect(built(cold), cold.log.slice(-2000)).toBe(true);
    const first = site();

    const again = await buildSite(out, env);
    expect(skipped(again), again.log).toBe(true);
    expect(site()).toEqual(first);

    // Content decides, not times: a session rewritten with the same bytes changes nothing.
    const file = sessionFile();
    writeFileSync(file, readFileSync(file));
    expect(skipped(await buildSite(out, env))).toBe(true);

    // A prompt edited: built, and the page shows it.
    const lines = readFileSync(file, 'utf8').split('\n');
    const i = lines.findIndex((l) => l.includes('"type":"user"') && /"content":"[^"]/.test(l));
    const entry = JSON.parse(lines[i]);
    entry.message.content = `okapibanana ${entry.message.content}`;
    lines[i] = JSON.stringify(entry);
    writeFileSync(file, lines.join('\n'));
    const edited = await buildSite(out, env);
    expect(built(edited), edited.log.slice(-2000)).toBe(true);
    expect(listFiles(join(out, 'sessions')).some((f) => readFileSync(f, 'utf8').includes('okapibanana'))).toBe(true);
    const second = site();

    // A page removed from the output: built again, and the page is back. A page changed by hand (same length,
    // other bytes): built again too (what Astro's incremental build then does with it is Astro's).
    const page = [...second.keys()].find((f) => f.includes('/sessions/') && f.endsWith('index.html'))!;
    rmSync(page);
    expect(built(await buildSite(out, env))).toBe(true);
    expect(site()).toEqual(second);
    writeFileSync(page, second.get(page)!.replace(/<title>/, '<titlf>'), 'latin1');
    expect(built(await buildSite(out, env))).toBe(true);

    // The config file, a SESSIONPRESS_ variable: built again.
    writeFileSync(config, JSON.stringify({ title: 'Up to date, renamed' }));
    const renamed = await buildSite(out, env);
    expect(built(renamed)).toBe(true);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('Up to date, renamed');
    expect(built(await buildSite(out, { ...env, SESSIONPRESS_SITE: 'https://archive.example' }))).toBe(true);
    expect(skipped(await buildSite(out, { ...env, SESSIONPRESS_SITE: 'https://archive.example' }))).toBe(true);
  }, 600_000);

  it('names a link in the source but never reads through it: what it points at may change without a build', async () => {
    writeFileSync(outside, `${JSON.stringify({ type: 'summary', summary: 'outside', leafUuid: 'x' })}\n`);
    const project = join(source, readdirSync(source).find((d) => d.startsWith('-'))!);
    symlinkSync(outside, join(project, 'linked-session.jsonl'));
    const linked = await buildSite(out, env);
    expect(built(linked), linked.log.slice(-2000)).toBe(true);
    expect(linked.log).toMatch(/symbolic link/i);
    writeFileSync(outside, `${JSON.stringify({ type: 'summary', summary: 'outside, changed and longer', leafUuid: 'y' })}\n`);
    expect(skipped(await buildSite(out, env))).toBe(true);
    // SESSIONPRESS_ALWAYS_BUILD=1 builds anyway (what the caches hold is still reused).
    expect(built(await buildSite(out, { ...env, SESSIONPRESS_ALWAYS_BUILD: '1' }))).toBe(true);
  }, 300_000);
});
