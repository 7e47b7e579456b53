import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSite, listFiles, problemLines, readAllText, sessionDocument } from '../helpers/build.js';
import { repoRoot } from '../helpers/shared.js';

/**
 * Rebuilds reuse every unchanged session and redo only what changed; removed files lose their pages.
 * The search index is built in shards here (a tiny shard size), so a change must rebuild the shard
 * that holds the session and reuse the others.
 */
describe('incremental builds', () => {
  it('reprocesses only the changed session and drops deleted ones', async () => {
    const source = mkdtempSync(join(tmpdir(), 'sp-inc-src-'));
    cpSync(join(repoRoot, 'content', 'sessions'), source, { recursive: true });
    const out = mkdtempSync(join(tmpdir(), 'sp-inc-out-'));
    const config = join(mkdtempSync(join(tmpdir(), 'sp-inc-config-')), 'sessionpress.config.json');
    writeFileSync(config, JSON.stringify({ search: { shardSizeMB: 0.01 } }));
    const env = { SESSIONPRESS_SOURCE: source, SESSIONPRESS_CONFIG: config };
    /** The text of every search bundle of the site (fragments decompressed). */
    const searchText = () =>
      readAllText(out)
        .filter((f) => /[\\/]pagefind(-\d+)?[\\/]fragment[\\/]/.test(f.file))
        .map((f) => f.text)
        .join('\n');
    const sessions = listFiles(source).filter((f) => f.endsWith('.jsonl') && !/agent-/.test(f));
    const n = sessions.length;
    // A file with no conversation (only a summary line) gets no page, and is not read again while unchanged.
    const project = readdirSync(source).find((d) => !d.startsWith('.'))!;
    writeFileSync(join(source, project, 'metadata-only-session.jsonl'), `${JSON.stringify({ type: 'summary', summary: 'Only a title', leafUuid: 'nowhere' })}\n`);

    const cold = await buildSite(out, env);
    expect(cold.code, cold.log.slice(-2000)).toBe(0);
    expect(cold.log).toMatch(new RegExp(`${n} sessions \\(0 unchanged, 1 skipped`));
    expect(cold.log).toMatch(new RegExp(`processing ${n + 1} sessions`));
    const shards = Number(/(\d+) of (\d+) shards rebuilt/.exec(cold.log)?.[2]);
    expect(shards).toBeGreaterThan(1);
    expect(cold.log).toContain(`${shards} of ${shards} shards rebuilt`);

    // Through Astro (a rebuild with nothing changed is otherwise not started: test/site/up-to-date.test.ts).
    const warm = await buildSite(out, { ...env, SESSIONPRESS_ALWAYS_BUILD: '1' });
    expect(warm.code).toBe(0);
    expect(warm.log).toMatch(new RegExp(`${n} sessions \\(${n} unchanged, 1 skipped`));
    expect(warm.log).not.toMatch(/processing \d+ session/);
    expect(warm.log).toMatch(/skipped 1 file with nothing to show \(1 metadata only\): \S*metadata-only-session\.jsonl$/m);
    expect(warm.log).toContain(`reused the search index (${shards} shards)`);

    // Change one prompt's text: only that session is processed again, and the page shows the change.
    // Change one human prompt's text: only that session is processed again, and the page shows the change.
    const marker = 'zebraquokka';
    let target = '';
    for (const file of sessions) {
      const lines = readFileSync(file, 'utf8').split('\n');
      const i = lines.findIndex((l) => {
        if (!l.trim()) return false;
        const e = JSON.parse(l);
        return e.type === 'user' && !e.isMeta && typeof e.message?.content === 'string' && !e.message.content.startsWith('<');
      });
      if (i === -1) continue;
      const e = JSON.parse(lines[i]);
      e.message.content = `${marker} ${e.message.content}`;
      lines[i] = JSON.stringify(e);
      writeFileSync(file, lines.join('\n'));
      target = file;
      break;
    }
    expect(target).not.toBe('');
    const changed = await buildSite(out, env);
    expect(changed.code).toBe(0);
    expect(changed.log).toMatch(/processing 1 session\b/);
    expect(changed.log).toMatch(new RegExp(`${n} sessions \\(${n - 1} unchanged`));
    const id = target.split('/').pop()!.replace(/\.jsonl$/, '');
    const page = listFiles(join(out, 'sessions')).find((f) => f.endsWith(`${id}/index.html`))!;
    expect(readFileSync(page, 'utf8')).toContain(marker);
    // Only the shard holding the session is indexed again, and search finds the new text.
    expect(changed.log).toContain(`1 of ${shards} shards rebuilt`);
    expect(searchText()).toContain(marker);

    // Delete a session: its page disappears, the others stay.
    rmSync(target);
    const removed = await buildSite(out, env);
    expect(removed.code).toBe(0);
    expect(listFiles(join(out, 'sessions')).some((f) => f.includes(id))).toBe(false);
    // Nor is it found by search any more; the other sessions still are.
    const afterRemoval = searchText();
    expect(afterRemoval).not.toContain(id);
    expect(afterRemoval).not.toContain(marker);
    expect(afterRemoval.length).toBeGreaterThan(0);
    expect(removed.log).toMatch(new RegExp(`${n - 1} sessions \\(${n - 1} unchanged`));
    expect(existsSync(join(out, 'index.html'))).toBe(true);
    expect(readdirSync(join(out, 'sessions')).length).toBeGreaterThan(0);
    for (const dir of [source, out, `${out}-cache`, join(config, '..')]) rmSync(dir, { recursive: true, force: true });
  }, 300_000);

  it("reports an unchanged session's problems again from its render, and renders it again when that record is gone", async () => {
    const source = mkdtempSync(join(tmpdir(), 'sp-inc-problems-src-'));
    cpSync(join(repoRoot, 'content', 'sessions'), source, { recursive: true });
    const out = mkdtempSync(join(tmpdir(), 'sp-inc-problems-out-'));
    // One session with a line that is not JSON: a problem its page lists and every build reports.
    const file = listFiles(source).find((f) => f.endsWith('.jsonl') && !/agent-/.test(f))!;
    const id = file.split('/').pop()!.replace(/\.jsonl$/, '');
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"type":"user", this line is cut short\n`);
    const env = { SESSIONPRESS_SOURCE: source, SESSIONPRESS_ALWAYS_BUILD: '1' };
    const pageProblems = () => [...sessionDocument(out, id).querySelectorAll('#problems li')].map((li) => li.textContent);

    const cold = await buildSite(out, env);
    expect(cold.code, cold.log.slice(-2000)).toBe(0);
    const problems = problemLines(out);
    expect(problems.length).toBeGreaterThan(0);
    expect(pageProblems().length).toBe(problems.length);

    // Nothing changed: nothing is processed, and the problems file and the page list the same problems.
    const warm = await buildSite(out, env);
    expect(warm.code).toBe(0);
    expect(warm.log).not.toMatch(/processing \d+ session/);
    expect(problemLines(out)).toEqual(problems);
    expect(pageProblems().length).toBe(problems.length);

    // The render's record of them is unreadable: that session alone is rendered again, and still reports them.
    const renders = join(`${out}-cache`, 'sessionpress');
    const withProblems = readdirSync(renders).filter((name) => name.endsWith('.render')).map((name) => join(renders, name)).filter((f) => readFileSync(f, 'utf8').includes('"problems":[{'));
    expect(withProblems).toHaveLength(1);
    // Its details broken where they start (`{"toc":…`), the rest of the file as it was.
    const bytes = readFileSync(withProblems[0]);
    bytes.write('X', bytes.indexOf('{"toc":'));
    writeFileSync(withProblems[0], bytes);
    const again = await buildSite(out, env);
    expect(again.code, again.log.slice(-2000)).toBe(0);
    expect(again.log).toMatch(/processing 1 session\b/);
    expect(problemLines(out)).toEqual(problems);
    expect(pageProblems().length).toBe(problems.length);
    for (const dir of [source, out, `${out}-cache`]) rmSync(dir, { recursive: true, force: true });
  }, 300_000);
});
