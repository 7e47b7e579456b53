/**
 * `npm run comment-screenshot -- [--source DIR] [--session ID]… [--out FILE] [--open]`
 *
 * The README's picture of a pull request comment: builds the body exactly as
 * `sessionpress pr-comment` would (no GitHub involved), renders it as GitHub
 * does (marked, GFM, raw HTML kept: the site's own renderer shows raw HTML as
 * text, which would show our `<details>` as text) through the site's
 * sanitiser into a page about as wide as a GitHub comment, and photographs it
 * with Debian's Chromium at 1280 px, as tall as the comment (at most 2,400 px).
 * Defaults: the bundled samples (content/sessions), their first two sessions,
 * docs/pr-comment.png.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseCommandLine } from './lib/cli.js';
import { commentBody, type CommentSession } from './lib/pr-comment/body.js';
import { launchBrowser } from '../test/helpers/browser.js';
import { openSessionById, sourceLayout } from '../src/lib/build/open-session.js';
import { Marked } from 'marked';
import { sanitizeHtml } from '../src/lib/render/sanitize.js';
import { absoluteUrl, sessionUrl } from '../src/lib/site/urls.js';

const REPO = resolve(import.meta.dirname, '..');
const USAGE = `usage: npm run comment-screenshot -- [--source DIR] [--session ID]… [--out FILE] [--open]

  --source DIR   sessions folder (default: content/sessions, the bundled samples)
  --session ID   a session (id or prefix) to list; repeat for more (default: the first two)
  --out FILE     the PNG (default: docs/pr-comment.png)
  --open         show the first session's whole Markdown opened`;

/** A GitHub-like frame: one comment box, about as wide as GitHub's conversation column. */
function page(html: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>pr-comment</title><style>
body{margin:0;background:#fff;color:#1f2328;font:14px/1.5 -apple-system,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif}
.wrap{max-width:920px;margin:24px auto;padding:0 16px}
.box{border:1px solid #d1d9e0;border-radius:6px}
.head{background:#f6f8fa;border-bottom:1px solid #d1d9e0;padding:8px 16px;border-radius:6px 6px 0 0;color:#59636e}
.head b{color:#1f2328}
.md{padding:16px}
.md h2{font-size:1.5em;border-bottom:1px solid #d1d9e0;padding-bottom:.3em;margin:0 0 16px}
.md h3{font-size:1.25em;margin:24px 0 16px}
.md code{background:#eff1f3;border-radius:6px;padding:.2em .4em;font:85% ui-monospace,SFMono-Regular,Menlo,monospace}
.md pre{background:#f6f8fa;border-radius:6px;padding:16px;overflow:auto}.md pre code{background:none;padding:0}
.md blockquote{margin:0 0 16px;padding:0 1em;color:#59636e;border-left:.25em solid #d1d9e0}
.md a{color:#0969da;text-decoration:none}.md details{margin:0 0 16px}.md summary{cursor:pointer}
</style></head><body><div class="wrap"><div class="box"><div class="head"><b>github-actions</b> <span>bot</span> commented</div><div class="md">${html}</div></div></div></body></html>`;
}

export async function main(argv: string[]): Promise<number> {
  const cli = parseCommandLine(argv, { source: { type: 'string' }, session: { type: 'string', multiple: true }, out: { type: 'string' }, open: { type: 'boolean' } }, USAGE, console.log, { max: 0 });
  if (!cli.ok) return cli.code;
  const { values } = cli;
  const source = resolve(values.source ?? `${REPO}/content/sessions`);
  const ids = values.session?.length ? values.session : (await sourceLayout(source)).layout.sessions.slice(0, 2).map((s) => s.sessionId);
  const site = 'https://you.github.io';
  const sessions: CommentSession[] = [];
  for (const id of ids) {
    const opened = await openSessionById(source, id, {});
    const slug = opened.identity.entryId;
    sessions.push({ session: opened.result.session, reasons: ['files'], pageUrl: absoluteUrl(sessionUrl('/my-sessions/', slug), site), messageUrl: (uuid) => absoluteUrl(sessionUrl('/my-sessions/', slug, { message: uuid }), site) });
  }
  const body = commentBody(sessions, { pageSize: 40 });
  let html = sanitizeHtml(new Marked({ gfm: true, async: false }).parse(body) as string);
  if (values.open) html = html.replace('<details>', '<details open>');
  const out = resolve(values.out ?? `${REPO}/docs/pr-comment.png`);
  mkdirSync(dirname(out), { recursive: true });
  const browser = await launchBrowser();
  try {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await tab.setContent(page(html), { waitUntil: 'load' });
    const box = await tab.locator('.box').boundingBox();
    const height = Math.min(2400, Math.ceil((box?.y ?? 0) + (box?.height ?? 800) + 24));
    await tab.screenshot({ path: out, fullPage: true, clip: { x: 0, y: 0, width: 1280, height } });
  } finally {
    await browser.close();
  }
  console.log(`wrote ${out} (${body.length.toLocaleString('en-US')} characters of Markdown, sessions ${ids.join(', ')})`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main(process.argv.slice(2));
