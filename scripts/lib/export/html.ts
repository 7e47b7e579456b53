/**
 * A session as one self-contained HTML file: the site's styles and page script
 * inlined, images as `data:` URIs, the transcript rendered by the site's own
 * renderer. It makes no request (a Content-Security-Policy forbids any), opens
 * from `file://`, and keeps dark mode, permalinks and collapsing.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import prices from '../../../src/data/prices.json' with { type: 'json' };
import { renderSession, type AssetRef } from '../../../src/lib/build/render-session.js';
import { formatDuration, formatTimestamp, formatTokens } from '../../../src/lib/format.js';
import { escapeHtml } from '../../../src/lib/render/sanitize.js';
import { usageCost, type PriceTable } from '../../../src/lib/site/cost.js';
import { countOf, formatEstimate, formatStatedCost } from '../../../src/lib/site/summary.js';
import { messageAnchor } from '../../../src/lib/site/urls.js';
import type { Session } from '../../../src/lib/transcript/types.js';

export interface HtmlExportOptions {
  /** The repository root, where `src/styles` and `src/scripts` are. */
  root: string;
  /** Absolute URL of the published page, shown as a link when the site is set. */
  pageUrl?: string;
  /** Only these turns are rendered (all when undefined). */
  turnFilter?: (index: number) => boolean;
}

/**
 * A relative prefix the renderer writes image URLs under (the sanitiser keeps
 * relative URLs only); each is swapped for its `data:` URI after sanitising.
 */
const ASSET_PREFIX = 'sessionpress-export-asset/';

/** The stylesheets of the site, in the order the layout imports them. */
const STYLES = ['src/styles/theme.css', 'src/styles/site.css', 'src/styles/transcript.css'];

/** The few rules the export's own header needs beyond the site's stylesheets (the PR badge's live in its component). */
const EXPORT_CSS = `.pr-badge{display:inline-block;border:1px solid light-dark(#8250df,#a371f7);color:light-dark(#6639ba,#d2a8ff);background:light-dark(#fbefff,#271052);border-radius:999px;padding:0 .55em;font-size:.85em;margin-right:.4em}`;

/** Same as the layout's: applies a stored theme before paint. */
const THEME_SCRIPT = `try{const t=localStorage.getItem('sessionpress-theme');if(t==='dark'||t==='light')document.documentElement.dataset.theme=t}catch{}`;

/** Renders the whole session (one page, however long) into a single HTML document. */
export async function sessionToHtml(session: Session, options: HtmlExportOptions): Promise<string> {
  const shown = options.turnFilter ? { ...session, turns: session.turns.filter((t) => options.turnFilter!(t.index)) } : session;
  const rendered = await renderSession(shown, { pageSize: Math.max(1, shown.turns.length), assetBase: ASSET_PREFIX, indexToolOutput: false, indexThinking: false });
  const transcript = inlineAssets(rendered.pages.map((p) => p.value).join('\n'), rendered.assets);
  const abandoned = options.turnFilter ? '' : inlineAssets(rendered.abandoned.value, rendered.assets);
  const [css, script] = await Promise.all([readStyles(options.root), bundlePageScript(options.root)]);
  const body = [
    `<a class="skip-link" href="#main">Skip to content</a>`,
    `<header class="site"><span class="brand">Sessionpress export</span><div class="site-tools"><button type="button" class="theme-toggle" data-theme-toggle aria-label="Toggle dark mode">◐</button></div></header>`,
    `<main id="main"><article class="session" data-session-id="${escapeHtml(session.sessionId)}">`,
    headerHtml(session, options.pageUrl),
    tocHtml(rendered.toc),
    `<div class="transcript" data-transcript>${transcript}</div>`,
    `</article>`,
    abandoned
      ? `<section class="abandoned" aria-labelledby="abandoned-title"><h2 id="abandoned-title">Abandoned branches</h2><p>The user rewound the conversation at these points. They are not part of the transcript above.</p><div>${abandoned}</div></section>`
      : '',
    `</main>`,
    `<footer class="site"><p>Exported with Sessionpress. Secrets and personal data were redacted before export.</p></footer>`,
  ].join('\n');
  const csp = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `script-src ${[THEME_SCRIPT, script].map((s) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`).join(' ')}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(session.title)}</title>
<script>${THEME_SCRIPT}</script>
<style>${css}</style>
</head>
<body class="sessionpress">
${body}
<script>${script}</script>
</body>
</html>
`;
}

const SAFE_IMAGE_TYPE = /^image\/(?:png|jpeg|gif|webp)$/;

/** Swaps each asset URL the renderer wrote for the image's bytes as a `data:` URI. */
export function inlineAssets(markup: string, assets: AssetRef[]): string {
  if (!assets.length) return markup;
  const byName = new Map(assets.map((a) => [a.name, a]));
  return markup.replace(/(src=")sessionpress-export-asset\/([A-Za-z0-9.]+)(")/g, (all, open: string, name: string, close: string) => {
    const a = byName.get(name);
    // The media type lands inside an attribute: only the image types the renderer writes.
    return a && SAFE_IMAGE_TYPE.test(a.mediaType) ? `${open}data:${a.mediaType};base64,${a.bytes.toString('base64')}${close}` : all;
  });
}

async function readStyles(root: string): Promise<string> {
  const parts = await Promise.all(STYLES.map((p) => readFile(join(root, p), 'utf8')));
  // A stylesheet never holds `</style` in practice; make sure of it, as the CSS is inlined.
  return [...parts, EXPORT_CSS].join('\n').replace(/<\/style/gi, '<\\/style');
}

let bundled: Promise<string> | undefined;

/** The site's page script (theme toggle, copy links, landing on a permalink) bundled into one inline script. */
export function bundlePageScript(root: string): Promise<string> {
  bundled ??= (async () => {
    const { build } = await import('esbuild');
    const result = await build({
      stdin: { contents: `import { initPage } from './src/scripts/page.ts'; initPage();`, resolveDir: root, loader: 'ts', sourcefile: 'export-entry.ts' },
      bundle: true,
      write: false,
      format: 'iife',
      target: 'es2022',
      minify: true,
      logLevel: 'silent',
    });
    return result.outputFiles[0].text.replace(/<\/script/gi, '<\\/script');
  })();
  return bundled;
}

function headerHtml(session: Session, pageUrl: string | undefined): string {
  const f = session.facts;
  const rows: Array<[string, string]> = [];
  rows.push(['Project', `${escapeHtml(f.projectName)} <code>${escapeHtml(f.projectPath)}</code>`]);
  const when = formatTimestamp(f.firstTimestamp);
  if (when) rows.push(['When', `<time datetime="${escapeHtml(f.firstTimestamp)}">${escapeHtml(when)}</time>${f.durationMs !== undefined ? ` (${escapeHtml(formatDuration(f.durationMs))})` : ''}`]);
  if (f.models.length) rows.push(['Models', f.models.map((m) => `<span class="chip">${escapeHtml(m)}</span>`).join(' ')]);
  if (f.gitBranches.length) rows.push(['Branch', f.gitBranches.map((b) => `<code class="chip">${escapeHtml(b)}</code>`).join(' ')]);
  rows.push(['Activity', `${countOf(f.promptCount, 'prompt')} · ${countOf(f.messageCount, 'message')} · ${countOf(f.toolCallCount, 'tool call')}`]);
  const table = prices as PriceTable;
  const usage = f.usage.map((u) => {
    const cost = usageCost(u, table);
    const money = cost === undefined ? '' : cost.stated ? ` · ${formatStatedCost(cost.amount, table.currency)} stated` : ` · ${formatEstimate(cost.amount, table.currency)}`;
    return `<li>${escapeHtml(u.model)}${u.provider ? ` via ${escapeHtml(u.provider)}` : ''}: ${formatTokens(u.inputTokens)} in, ${formatTokens(u.outputTokens)} out, ${formatTokens(u.cacheReadTokens)} cache read${money}</li>`;
  });
  if (usage.length) rows.push(['Tokens', `<ul class="usage">${usage.join('')}</ul><small>Estimated at list prices of ${escapeHtml((prices as PriceTable).asOf)}.</small>`]);
  // Links to other sites are text here: the export makes no request, and a click would be one.
  for (const pr of f.pullRequests ?? []) rows.push(['Pull request', `<span class="pr-badge">${escapeHtml(pr.repository ?? '')}#${pr.number}</span> <code>${escapeHtml(pr.url)}</code>`]);
  if (pageUrl) rows.push(['Published', `<code>${escapeHtml(pageUrl)}</code>`]);
  return `<header class="session-header"><h1>${escapeHtml(session.title)}</h1><dl class="facts">${rows.map(([k, v]) => `<div><dt>${k}</dt><dd>${v}</dd></div>`).join('')}</dl></header>`;
}

function tocHtml(toc: Array<{ n: number; uuid: string; text: string }>): string {
  if (toc.length < 2) return '';
  const items = toc.map((t) => `<li><a href="#${escapeHtml(messageAnchor(t.uuid))}">${escapeHtml(t.text)}</a></li>`).join('');
  return `<nav class="toc" aria-label="Prompts"><details open><summary>Prompts (${toc.length})</summary><ol>${items}</ol></details></nav>`;
}
