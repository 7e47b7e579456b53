/**
 * What a worker thread does before its first session in any case, done as
 * soon as the thread starts: load the highlighter and its core grammars,
 * translate the grammar rules ordinary code meets (shiki's JavaScript engine
 * does that the first time a rule is used), load secretlint's rules and run
 * our own, and parse and sanitise a little Markdown. About a second, paid
 * while Astro is still starting when the integration starts the thread early
 * (`prestartSessionPool`) instead of on the first session the loader sends.
 *
 * It changes nothing a render gives: the core grammars are loaded by every
 * render, translations are cached per pattern, and nothing here touches the
 * redactor or the render cache of a session.
 */
import { createRedactor } from '../redact/redactor.js';
import { highlightCode, loadHighlighter } from '../render/highlight.js';
import { markdownToUnsanitizedHtml } from '../render/markdown.js';
import { sanitizeHtml } from '../render/sanitize.js';

/** A few lines of what nearly every transcript holds: shell commands, TypeScript, JSON. */
const SAMPLES: ReadonlyArray<[lang: string, code: string]> = [
  ['shellscript', 'cd "$HOME/app" && npm install --no-audit 2>&1 | tail -n 5\nfor f in src/*.ts; do echo "$f"; done\nexport PATH=/usr/local/bin:$PATH # ok'],
  ['typescript', 'import { readFile } from "node:fs/promises";\nexport async function load(path: string): Promise<Record<string, unknown>> {\n  const text = await readFile(path, "utf8");\n  return JSON.parse(text) as Record<string, unknown>;\n}'],
  ['json', '{"name": "app", "version": "1.0.0", "scripts": {"test": "vitest"}, "list": [1, 2.5, true, null]}'],
];

const MARKDOWN = '# Plan\n\n1. Read `src/index.ts`\n2. Run **tests**\n\n```ts\nconst a = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> [link](https://example.com)';

/** Warms the thread's highlighter, redaction and Markdown (see the module's comment). Never throws. */
export async function warmUp(): Promise<void> {
  try {
    await warmHighlighter();
    await createRedactor({}).redactSession([{ text: `${MARKDOWN}\n${SAMPLES.map(([, code]) => code).join('\n')}` }]);
    sanitizeHtml(markdownToUnsanitizedHtml(MARKDOWN));
  } catch {
    // Only time is at stake: the first session does whatever did not get done here.
  }
}

/**
 * The highlighter's part of `warmUp` alone: what a helper thread
 * (helper-thread.ts) warms while the session is read. It parses no Markdown
 * and leaves secretlint's rules to its first batch of strings. Never throws.
 */
export async function warmHighlighter(): Promise<void> {
  try {
    await loadHighlighter();
    for (const [lang, code] of SAMPLES) highlightCode(code, { lang });
  } catch {
    // Only time is at stake, as in warmUp.
  }
}
