/**
 * Builds a standalone preview page from rendered corpus and fixture sessions,
 * styled with the site's stylesheets (theme, site, transcript) as our pages are, for layout tests and eyeballing.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createRenderContext, prepareMessages, renderTranscript } from '../../src/lib/render/render-message.js';
import type { Session } from '../../src/lib/transcript/types.js';
import { corpusRoot, fixturesRoot, loadExpect, loadSessions, repoRoot } from './render.js';


/** A page holding the sessions that use the most kinds of tools, plus the XSS fixture session. */
export async function previewPage(theme: 'light' | 'dark' = 'light', limit = 3): Promise<string> {
  const corpus = await loadSessions(corpusRoot);
  const score = (s: Session) => Object.keys(s.facts.toolCounts).length * 10 - s.messages.length / 100;
  const picked = corpus.sort((a, b) => score(b) - score(a)).slice(0, limit);
  const xssFolder = (loadExpect().xss.file as string).split('/')[1];
  picked.push(...(await loadSessions(fixturesRoot, (s) => s.projectFolder === xssFolder)));
  const parts: string[] = [];
  for (const s of picked) {
    await prepareMessages(s.messages);
    // Assets are not written in previews: every image points at the same placeholder.
    const ctx = createRenderContext({ emitAsset: () => 'placeholder.png', turns: s.turns });
    parts.push(`<section class="session"><h1>${s.sessionId}</h1>${renderTranscript(s.messages, ctx)}</section>`);
  }
  const css = ['src/styles/theme.css', 'src/styles/site.css', 'src/styles/transcript.css'].map((f) => readFileSync(resolve(repoRoot, f), 'utf8')).join('\n');
  return `<!DOCTYPE html><html lang="en" data-theme="${theme}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>preview</title><style>${css}</style></head><body class="sessionpress"><main style="max-width:60rem;margin:0 auto;padding:0 0.75rem">${parts.join('\n')}</main></body></html>`;
}
