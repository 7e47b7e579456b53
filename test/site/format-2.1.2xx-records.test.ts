import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, listFiles, problemLines, readAllText, sessionDocument, type BuildRun } from '../helpers/build.js';
import { repoRoot } from '../helpers/shared.js';

/**
 * A site built from our 2.1.2xx records (test/fixtures/format-2.1.2xx, the
 * project folder of EXPECT.records.json, copied into a source root of its
 * own): whole outputs kept beside the session shown whole, hook outputs kept
 * the same way shown compact, gateway models with the cost their records
 * state, redacted thinking as a marker, an SDK session saying so, and no
 * planted secret from a kept file anywhere in the output or the cache.
 */
const fixtures = join(repoRoot, 'test', 'fixtures', 'format-2.1.2xx');
const E = JSON.parse(readFileSync(join(fixtures, 'EXPECT.records.json'), 'utf8'));
const K = E.keptOutputs;
const H = E.hookOutputs;
const source = mkdtempSync(join(tmpdir(), 'sp-records-src-'));
const out = mkdtempSync(join(tmpdir(), 'sp-records-'));
let run: BuildRun;

const sessionDoc = (sessionId: string) => sessionDocument(out, sessionId);

function el(doc: Document | Element, selector: string): Element {
  const found = doc.querySelector(selector);
  if (!found) throw new Error(`nothing matches ${selector}`);
  return found;
}

const words = (e: Element | null | undefined) => (e?.textContent ?? '').replace(/\s+/g, ' ').trim();
/** The lines of an output as a reader sees them, from its code blocks (a long one is split into a preview and "show more"). */
const linesOf = (e: Element) => [...e.querySelectorAll('pre code')].flatMap((c) => (c.textContent ?? '').split('\n')).map((l) => l.trim()).filter(Boolean);

beforeAll(async () => {
  cpSync(join(fixtures, E.projectFolder), join(source, E.projectFolder), { recursive: true });
  run = await buildSite(out, { SESSIONPRESS_SOURCE: source, ASTRO_TELEMETRY_DISABLED: '1' });
  if (run.code !== 0) throw new Error(`build failed:\n${run.log.slice(-3000)}`);
}, 600_000);

afterAll(() => {
  for (const dir of [source, out, `${out}-cache`]) rmSync(dir, { recursive: true, force: true });
});

describe('whole outputs kept beside the session', () => {
  it('shows the kept file, not the stdout cut at 30,000 characters', () => {
    const call = el(sessionDoc(E.sessions.kept), `[data-tool-use-id="${K.byPreview.toolUseId}"]`);
    const output = el(call, '.tool-output');
    const lines = linesOf(output);
    expect(lines.at(-1)).toBe(K.byPreview.endMarker);
    // The line the cut went through is shown whole, and the cut fragment is no line of its own.
    expect(lines).toContain(K.byPreview.lineAtCut);
    expect(lines).not.toContain(K.byPreview.cutLineEnd);
    expect(lines).toHaveLength(K.byPreview.lines);
    expect(output.textContent).not.toContain('Preview (first 2KB)');
    expect(words(call.querySelector('summary small'))).toBe(`${K.byPreview.lines} lines`);
  });

  it('shows the kept file a result names only by persistedOutputPath', () => {
    const call = el(sessionDoc(E.sessions.kept), `[data-tool-use-id="${K.byPath.toolUseId}"]`);
    expect(linesOf(el(call, '.tool-output')).at(-1)).toBe(K.byPath.endMarker);
  });

  it('shows what the record holds when the kept file is missing, says so, and lists the problem with its line', () => {
    const doc = sessionDoc(E.sessions.kept);
    const call = el(doc, `[data-tool-use-id="${K.missing.toolUseId}"]`);
    expect(call.querySelector('.tool-output')?.textContent).toContain(K.missing.cutStdoutEnd);
    expect(words(call.querySelector('.kept-missing'))).toContain('was not found beside the session');
    const problem = [...doc.querySelectorAll('#problems li')].find((li) => li.textContent?.includes(K.missing.file));
    expect(words(problem?.querySelector('code'))).toMatch(new RegExp(`${E.sessions.kept}\\.jsonl:${K.missing.line}$`));
    // The problems file lists it with its line; the build log names the kind with its count and first places.
    const listedProblem = problemLines(out).find((l) => l.includes(`${E.sessions.kept}.jsonl:${K.missing.line}:`));
    expect(listedProblem).toMatch(/\[kept-output-missing\]$/);
    const logged = run.log.split('\n').find((l) => /\bkept-output-missing: \d+ in /.test(l));
    expect(logged).toContain(`${E.sessions.kept}.jsonl:${K.missing.line}`);
  });
});

describe('hook outputs kept beside the session', () => {
  it('are one closed line with their first line, the whole output one click away in the page', () => {
    const hook = el(sessionDoc(E.sessions.kept), `[data-uuid="${H.kept.uuid}"]`);
    const details = el(hook, 'details.hook-output.kept');
    expect(details.hasAttribute('open')).toBe(false);
    expect(words(details.querySelector('summary'))).toContain(H.kept.firstLine);
    expect(words(details.querySelector('summary'))).toContain(`${H.kept.lines} lines`);
    expect(details.querySelector('details')).toBeNull();
    expect(linesOf(details).at(-1)).toBe(H.kept.endMarker);
    expect(hook.textContent).not.toContain('persisted-output');
  });

  it('show the preview of one whose file is missing, and say so', () => {
    const doc = sessionDoc(E.sessions.kept);
    const hook = el(doc, `[data-uuid="${H.missing.uuid}"]`);
    expect(hook.textContent).toContain(H.missing.previewStart);
    expect(hook.querySelector('.kept-missing')).not.toBeNull();
    expect([...doc.querySelectorAll('#problems li')].some((li) => li.textContent?.includes(H.missing.file))).toBe(true);
  });
});

describe('gateway models and their stated cost', () => {
  it('shows each model with its gateway and the cost its records state; no price where none is known', () => {
    const header = el(sessionDoc(E.sessions.gateway), '.session-header');
    for (const row of E.gateway.rows) {
      const li = el(header, `.usage li[data-model="${row.model}"]`);
      const text = words(li);
      if (row.provider) expect(text, row.model).toContain(`via ${row.provider}`);
      expect(text, row.model).toContain(row.costText);
      if (row.costText === 'price unknown') expect(text, row.model).not.toMatch(/\$|≈/);
      if (row.byokMessages) expect(text, row.model).toContain('own key');
    }
    expect(words(header.querySelector('.session-cost'))).toBe(E.gateway.sessionCostText);
    expect(words(header.querySelector('.cost-note'))).toMatch(/Stated.*≈.*not counted/);
  });

  it('says on the session card which part of the cost is stated', () => {
    const index = new JSDOM(readFileSync(join(out, 'index.html'), 'utf8')).window.document;
    const card = [...index.querySelectorAll('.card')].find((c) => c.querySelector(`a[href*="${E.sessions.gateway}"]`));
    expect(words(card?.querySelector('.card-cost'))).toBe(E.gateway.sessionCostText);
  });
});

describe('redacted thinking', () => {
  it('is a short marker in its message, its data nowhere', () => {
    const message = el(sessionDoc(E.sessions.kept), `[data-uuid="${E.redactedThinking.messageUuid}"]`);
    expect(words(message.querySelector('.thinking.redacted'))).toBe(E.redactedThinking.marker);
    for (const t of [...readAllText(out), ...readAllText(`${out}-cache`)]) {
      if (t.text.includes(E.redactedThinking.data)) expect.fail(`${t.file} holds the redacted thinking's data`);
    }
  });
});

describe('a session run from the Agent SDK', () => {
  it('says so in its header, and its SDK prompts are prompts', () => {
    const doc = sessionDoc(E.sessions.gateway);
    const sdk = el(doc, '.session-header .session-sdk');
    expect(words(sdk)).toContain(E.sdk.label);
    expect(words(sdk)).toContain(E.sdk.entrypoint);
    expect(words(el(doc, 'h1'))).toBe(E.sdk.title);
    expect(doc.querySelectorAll('[data-transcript] [data-kind="prompt"]').length).toBe(E.sdk.prompts);
  });

  it('is not claimed for a session typed in the terminal', () => {
    expect(sessionDoc(E.notSdk).querySelector('.session-sdk')).toBeNull();
  });
});

describe('secrets in kept outputs and hook outputs', () => {
  it('reach neither the site, the search index nor the caches', () => {
    const texts = [...readAllText(out), ...readAllText(`${out}-cache`), ...readAllText(join(repoRoot, '.astro'))];
    expect(texts.some((t) => t.file.includes('pagefind'))).toBe(true);
    // Only the kept files hold them: the records' own text stops before them.
    const records = listFiles(join(fixtures, E.projectFolder)).filter((f) => f.endsWith('.jsonl')).map((f) => readFileSync(f, 'utf8')).join('\n');
    for (const secret of Object.values(E.secrets) as string[]) expect(records.includes(secret), 'a secret in the records').toBe(false);
    for (const t of texts) {
      for (const secret of Object.values(E.secrets) as string[]) if (t.text.includes(secret)) expect.fail(`${t.file} holds a planted secret`);
      if (t.text.includes(`/home/${E.username}`)) expect.fail(`${t.file} holds the home path of ${E.username}`);
    }
  });
});
