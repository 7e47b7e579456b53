import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, listFiles, problemLines, readAllText, type BuildRun } from '../helpers/build.js';
import { fixturesRoot, loadExpect, repoRoot } from '../helpers/shared.js';

const E = loadExpect();
const out = mkdtempSync(join(tmpdir(), 'sp-fixtures-'));
let run: BuildRun;
const pages = new Map<string, Document>();

/** The built page of a session, found by its id in the URL. */
function sessionPage(sessionId: string): Document {
  const cached = pages.get(sessionId);
  if (cached) return cached;
  const file = listFiles(join(out, 'sessions')).find((f) => f.includes(`/${sessionId}/`) && f.endsWith(`${sessionId}/index.html`));
  if (!file) throw new Error(`no page for ${sessionId}`);
  const doc = new JSDOM(readFileSync(file, 'utf8')).window.document;
  pages.set(sessionId, doc);
  return doc;
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
  rmSync(`${out}-cache`, { recursive: true, force: true });
});

beforeAll(async () => {
  run = await buildSite(out, { SESSIONPRESS_SOURCE: fixturesRoot });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
}, 600_000);

describe('site built from the hostile fixtures', () => {
  it('gives every session its page and lists it on the index; no page for empty, metadata-only or subagent files', () => {
    const index = readFileSync(join(out, 'index.html'), 'utf8');
    for (const s of E.sessions) {
      if (s.has_page) {
        expect(() => sessionPage(s.session_id), s.file).not.toThrow();
        expect(index).toContain(`/${s.session_id}/`);
      } else {
        expect(index).not.toContain(s.session_id);
      }
    }
    for (const f of E.not_sessions) {
      const id = f.split('/').pop().replace(/\.jsonl$/, '');
      expect(index).not.toContain(id);
    }
  });

  it('reports every bad line of the malformed file with its file and line in the problems file, and counts them in the log', () => {
    const m = E.malformed;
    const name = m.file.split('/').pop();
    const problems = problemLines(out);
    for (const b of m.bad_lines) expect(problems.some((l) => l.includes(`${name}:${b.line}: `)), `${name}:${b.line}`).toBe(true);
    expect(run.log).toMatch(new RegExp(`\\b${m.bad_line_count} bad lines`));
  });

  it('shows the active branch once, in order, and keeps abandoned branches out of the transcript', () => {
    const bs = E.branches_streaming;
    const doc = sessionPage(bs.session_id);
    const transcript = doc.querySelector('[data-transcript]')!;
    const text = transcript.textContent!;
    for (const m of bs.active_markers) expect(count(text, m), m).toBe(1);
    const order = bs.active_markers.slice().sort((a: string, b: string) => text.indexOf(a) - text.indexOf(b));
    expect(order).toEqual(bs.active_markers);
    for (const m of bs.active_thinking_markers) expect(count(text, m)).toBe(1);
    for (const m of bs.abandoned_markers) expect(text).not.toContain(m);
    const abandoned = [...doc.querySelectorAll('[data-branch="abandoned"]')].map((e) => e.textContent).join('\n');
    for (const m of bs.abandoned_markers) expect(abandoned).toContain(m);
    for (const a of doc.querySelectorAll('[data-branch="abandoned"]')) expect(a.closest('[data-transcript]')).toBeNull();
    const toolIds = [...transcript.querySelectorAll('[data-tool-use-id]')].map((e) => e.getAttribute('data-tool-use-id'));
    expect(toolIds.filter((id) => bs.active_tool_use_ids.includes(id))).toEqual(bs.active_tool_use_ids);
    for (const id of bs.abandoned_tool_use_ids) expect(toolIds).not.toContain(id);
    const prompts = [...transcript.querySelectorAll('[data-kind="prompt"]')].map((e) => e.textContent!);
    const promptOrder = bs.active_prompt_markers.map((m: string) => prompts.findIndex((p) => p.includes(m)));
    expect(promptOrder).toEqual([...promptOrder].sort((a, b) => a - b));
    expect(promptOrder.every((i: number) => i >= 0)).toBe(true);
    expect(doc.querySelector('h1')!.textContent).toContain(bs.title_marker);
    expect(doc.body.textContent).not.toContain(bs.foreign_summary_marker);
  });

  it('attaches each subagent transcript to the call that spawned it and drops warmups', () => {
    for (const s of E.subagents.sessions) {
      const doc = sessionPage(s.session_id);
      for (const a of s.agents) {
        const call = doc.querySelector(`[data-tool-use-id="${a.tool_use_id}"]`);
        expect(call, a.tool_use_id).not.toBeNull();
        const sub = call!.querySelector('[data-subagent]');
        expect(sub, `subagent of ${a.tool_use_id}`).not.toBeNull();
        for (const m of a.inner_markers) expect(sub!.textContent).toContain(m);
        expect(call!.textContent).toContain(a.prompt_marker);
        expect(call!.textContent).toContain(a.result_marker);
      }
    }
    const all = readAllText(out).map((f) => f.text).join('\n');
    for (const w of E.subagents.warmup_markers) expect(all).not.toContain(w);
  });

  it('loses nothing good from the malformed file', () => {
    const m = E.malformed;
    // Pages are cut by weight too: the file's 3 MB pasted prompt starts a page of its own. Read every page, in order.
    const files = listFiles(join(out, 'sessions')).filter((f) => f.includes(`/${m.session_id}/`) && f.endsWith('index.html'));
    const pageOf = (f: string) => Number(/\/(\d+)\/index\.html$/.exec(f)?.[1] ?? 1);
    const text = files
      .sort((a, b) => pageOf(a) - pageOf(b))
      .map((f) => new JSDOM(readFileSync(f, 'utf8')).window.document.querySelector('[data-transcript]')!.textContent!)
      .join('\n');
    expect(files.length).toBeGreaterThan(1);
    for (const k of m.markers_must_appear) expect(text, k).toContain(k);
    const order = m.markers_must_appear.slice().sort((a: string, b: string) => text.indexOf(a) - text.indexOf(b));
    expect(order).toEqual(m.markers_must_appear);
  });

  it('publishes no secret or personal string anywhere: HTML, JSON, search index, caches', () => {
    const places = [out, `${out}-cache`, join(repoRoot, '.astro')];
    const texts = places.flatMap((p) => readAllText(p));
    expect(texts.length).toBeGreaterThan(10);
    for (const value of E.must_not_appear) {
      const hit = texts.find((t) => t.text.includes(value));
      expect(hit?.file, `"${value.slice(0, 12)}…" leaked`).toBeUndefined();
    }
    const canary = sessionPage(E.canary.session_id).body.textContent!;
    for (const value of E.must_appear) expect(canary, value).toContain(value);
  });

  it('runs no XSS payload: no forbidden element or attribute inside transcript content, markers shown as text', () => {
    const x = E.xss;
    const doc = sessionPage(x.session_id);
    for (const region of doc.querySelectorAll('[data-transcript], [data-branch], .session-header')) {
      for (const sel of x.forbidden_selectors) expect(region.querySelector(sel), sel).toBeNull();
    }
    const text = doc.body.textContent!;
    for (const p of x.payloads) expect(text, p.id).toContain(p.marker);
    expect(doc.title).not.toContain(x.detect.title_prefix);
  });
});
