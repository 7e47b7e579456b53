import { createHash } from 'node:crypto';
import { serialize } from 'node:v8';
import { startDeferredHighlighting, type HighlightingPage, type Tokenizer } from '../render/highlight.js';
import { createRenderContext, prepareMessages, renderTranscriptSafe, startPage } from '../render/render-message.js';
import { html, joinHtml, unescapeTextQuotes, type SafeHtml } from '../render/sanitize.js';
import type { Message, Session, Turn } from '../transcript/types.js';
import { isContinuation, paginateTurns, shownCalls } from '../site/pages.js';
import { promptTitleText, shortenTitle } from '../transcript/build-session.js';
import { createOverviewCollector, type PromptFacts, type SessionOverview } from './session-overview.js';

/** A prompt as the overview lists it: its words, where it is, and what it led to (tool tally, duration, files). */
export interface TocItem extends PromptFacts {
  /** 1-based prompt number. */
  n: number;
  uuid: string;
  text: string;
  /** 1-based page of the session that holds the prompt. */
  page: number;
}

export interface AssetRef {
  name: string;
  mediaType: string;
  bytes: Buffer;
}

export interface RenderedSession {
  /** Transcript HTML of each page, in order; empty when the pages went to a {@link PageSink} as they were made. */
  pages: SafeHtml[];
  /** How many pages the transcript has. */
  pageCount: number;
  /** The turns of each page (`paginateTurns`; a turn cut by weight is in pieces): the Markdown twin is written page by page from them. */
  pageTurns: Turn[][];
  /** HTML of the abandoned branches, shown apart from the transcript. */
  abandoned: SafeHtml;
  toc: TocItem[];
  /** Files touched, subagents and commits, bounded (see session-overview.ts). */
  overview: SessionOverview;
  /** Message uuid → page, for every rendered message (used to forward old links). */
  anchors: Record<string, number>;
  /** Tool call (`tool_use`) id → page, for every call shown, its subagents' included (`#t-<id>` links are forwarded too). */
  toolAnchors: Record<string, number>;
  assets: AssetRef[];
  /**
   * A digest of what each page shows (its messages, their subagents, fork
   * markers, the settings and code of the render), when `PageReuse` was
   * given: the next render of a grown session reuses the pages whose digest
   * is the same. Empty for a page that emitted an image (always rendered).
   */
  pageDigests?: string[];
  /** Per page (from 0): whether it is the last render's page, taken as it was (`PageReuse.previous`). */
  reused: boolean[];
  /**
   * One digest per page of everything that page shows of the render: its
   * transcript (its page digest, or its HTML's when it has none), its prompts
   * as the overview lists them, and the abandoned branches (shown beside every
   * page, so that a fork marker's link lands). A page after the first is keyed
   * by it and by nothing that grows with the session (page-key.ts), so an
   * append leaves the keys of the pages before its own as they were.
   */
  pageKeys: string[];
}

/** What lets a render reuse the pages of the last render of the same session (a session that grew by appended lines). */
export interface PageReuse {
  /** Mixed into every page's digest: the settings and the code a render depends on. */
  salt: string;
  /**
   * The last render's page digests, and a reader of its pages. With a
   * {@link PageSink}, `keep` (when given) takes the last render's page as this
   * render's instead of reading it and handing it on: the render cache copies
   * the file, and 460 MB of a grown 630 MB session's pages never become strings.
   */
  previous?: { digests: string[]; read: (page: number) => Promise<SafeHtml>; keep?: (page: number) => Promise<void> };
}

/**
 * Takes each page as soon as it is rendered (or reused), so a huge session's
 * pages need not all be held at once: 630 MB of transcript is ~330 MB of page
 * HTML, held twice over as JavaScript strings.
 */
export type PageSink = (page: number, html: SafeHtml) => Promise<void>;

export interface RenderSessionOptions {
  /** Turns per page; a session with more is split into pages. */
  pageSize: number;
  /** URL prefix under which asset files are served, ending in `/`. */
  assetBase: string;
  indexToolOutput: boolean;
  indexThinking: boolean;
}

const MIME_EXT: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** The content-hashed file name of an image: the same bytes always get the same name. */
export function assetName(bytes: Buffer, mediaType: string): string {
  return `${createHash('sha256').update(bytes).digest('hex').slice(0, 20)}.${MIME_EXT[mediaType] ?? 'bin'}`;
}

/**
 * Renders a session's transcript to HTML pages once, so that a build can cache
 * the result by content digest. Pages are cut by `paginateTurns` (by turns and
 * by weight), so a message keeps its page when the session grows. With a
 * `tokenizer`, the code each page shows is tokenised on two threads at once.
 * `onPage` is told the pages done so far and their number after each page.
 */
export async function renderSession(session: Session, options: RenderSessionOptions, reuse?: PageReuse, sink?: PageSink, tokenizer?: Tokenizer, onPage?: (pages: number, total: number) => void): Promise<RenderedSession> {
  await prepareMessages([...session.messages, ...session.abandoned.flatMap((b) => b.messages)]);
  const assets = new Map<string, AssetRef>();
  let pageEmitted = false;
  const ctx = createRenderContext({
    emitAsset(bytes: Buffer, mediaType: string): string {
      const name = assetName(bytes, mediaType);
      pageEmitted = true;
      if (!assets.has(name)) assets.set(name, { name, mediaType, bytes });
      return `${options.assetBase}${name}`;
    },
    indexToolOutput: options.indexToolOutput,
    renderThinking: true,
    indexThinking: options.indexThinking,
    turns: session.turns,
  });

  const forkMarkers = new Map<string, string[]>();
  for (const b of session.abandoned) {
    const list = forkMarkers.get(b.forkParentUuid) ?? [];
    list.push(b.firstUuid);
    forkMarkers.set(b.forkParentUuid, list);
  }

  const pages: SafeHtml[] = [];
  const anchors: Record<string, number> = {};
  const toolAnchors: Record<string, number> = {};
  const toc: TocItem[] = [];
  const overview = createOverviewCollector();
  const chunks = paginateTurns(session.turns, options.pageSize);
  // Where everything landed first: a turn split by weight spans pages, and what its overview
  // facts link to (a file's edit, a commit, a subagent) is on the page of that message.
  const turnPage = new Map<number, number>();
  for (const [i, turns] of chunks.entries()) {
    for (const turn of turns) {
      if (!turnPage.has(turn.index)) turnPage.set(turn.index, i + 1);
      for (const m of turn.messages) anchors[m.uuid] = i + 1;
      for (const call of shownCalls(turn.messages)) toolAnchors[call.id] ??= i + 1;
    }
  }
  for (const turn of session.turns) {
    const page = turnPage.get(turn.index) ?? 1;
    const facts = overview.add(turn, (uuid) => anchors[uuid] ?? page);
    if (turn.prompt) toc.push({ n: turn.index, uuid: turn.prompt.uuid, text: tocText(turn.prompt.text), page, ...facts });
  }
  const pageDigests: string[] = [];
  // What each page's transcript is, as a digest: its page digest (the same digest, the same HTML), or
  // without one the digest of the HTML itself.
  const contentDigests: string[] = [];
  const reused: boolean[] = [];
  const previous = reuse?.previous;
  // The page started last, still highlighting: it is finished once the next one is started, so that a
  // helper thread tokenises its share of one page while this thread builds the next (highlight.ts).
  let started: { i: number; digest: string; emitted: boolean; page: HighlightingPage } | undefined;
  const finishStarted = async () => {
    if (!started) return;
    const { i, digest, emitted } = started;
    const page = unescapeTextQuotes(await started.page.finish());
    started = undefined;
    if (!digest) contentDigests[i] = createHash('sha256').update(page.value).digest('hex');
    if (sink) await sink(i + 1, page);
    else pages.push(page);
    // Its images are known only by rendering it: such a page is rendered every time.
    if (reuse && emitted) pageDigests[i] = '';
    onPage?.(i + 1, chunks.length);
  };
  for (const [i, turns] of chunks.entries()) {
    const digest = reuse ? pageDigest(reuse.salt, turns, forkMarkers) : '';
    if (reuse) pageDigests.push(digest);
    contentDigests.push(digest);
    // A page whose messages are those of the last render's page: its HTML is that page's.
    if (digest && previous?.digests[i] === digest) {
      await finishStarted();
      reused.push(true);
      if (sink && previous.keep) await previous.keep(i + 1);
      else {
        const page = await previous.read(i + 1);
        if (sink) await sink(i + 1, page);
        else pages.push(page);
      }
      onPage?.(i + 1, chunks.length);
      continue;
    }
    reused.push(false);
    startPage(ctx);
    pageEmitted = false;
    const page = startDeferredHighlighting(() => joinHtml(turns.map((turn) => renderTurn(turn, ctx, forkMarkers)), NEWLINE), tokenizer);
    const emitted = pageEmitted;
    await finishStarted();
    started = { i, digest, emitted, page };
  }
  await finishStarted();

  startPage(ctx);
  const abandoned = unescapeTextQuotes(joinHtml(
    session.abandoned.map((b, i) => {
      const body = renderTranscriptSafe(b.messages, ctx);
      return html`<details class="branch" data-branch="abandoned" id="b-${attr(b.firstUuid)}" data-fork-parent="${attr(b.forkParentUuid)}" data-pagefind-ignore="all"><summary>Abandoned branch ${i + 1} · ${b.messages.length} message${b.messages.length === 1 ? '' : 's'} · not taken</summary>${body}</details>`;
    }),
    NEWLINE,
  ));

  const pageKeys = pageKeysOf(contentDigests, toc, abandoned);
  return { pages, pageCount: chunks.length, pageTurns: chunks, abandoned, toc, overview: overview.result(), anchors, toolAnchors, assets: [...assets.values()], pageKeys, reused, ...(reuse ? { pageDigests } : {}) };
}

/** `RenderedSession.pageKeys`: each page's transcript digest with its prompts and the abandoned branches. */
function pageKeysOf(contentDigests: string[], toc: TocItem[], abandoned: SafeHtml): string[] {
  const prompts = new Map<number, TocItem[]>();
  for (const t of toc) {
    const list = prompts.get(t.page) ?? [];
    list.push(t);
    prompts.set(t.page, list);
  }
  const branches = createHash('sha256').update(abandoned.value).digest('hex');
  return contentDigests.map((content, i) =>
    createHash('sha256')
      .update(JSON.stringify([content, prompts.get(i + 1) ?? [], branches]))
      .digest('hex')
      .slice(0, 32),
  );
}

/**
 * The digest of one page's content: its turns (index, whether continued, the
 * messages with everything shown inside them, subagents included), the fork
 * markers among them, and the salt. Written by V8's serializer, which copies
 * strings as they are and writes an object reached twice once (a subagent
 * shared by calls costs nothing more). `JSON.stringify` with a replacer that
 * did the same took 3.2 s of the 1 MB append to the 630 MB session (a CPU
 * profile); this takes 1.0 s, most of it the hash.
 */
function pageDigest(salt: string, turns: Turn[], forkMarkers: Map<string, string[]>): string {
  const content = turns.map((turn) => {
    const forks = turn.messages.flatMap((m) => (m.kind === 'assistant' ? m.uuids : [m.uuid]).flatMap((id) => forkMarkers.get(id) ?? []));
    return [turn.index, isContinuation(turn), turn.prompt?.uuid ?? null, forks, turn.messages];
  });
  return createHash('sha256').update(salt).update('\0').update(serialize(content)).digest('hex');
}

const NEWLINE = html`\n`;

function renderTurn(turn: Turn, ctx: ReturnType<typeof createRenderContext>, forkMarkers: Map<string, string[]>): SafeHtml {
  // Render runs of messages between fork points, so the marker lands right after its parent.
  const out: SafeHtml[] = [];
  let run: Message[] = [];
  for (const m of turn.messages) {
    run.push(m);
    const ids = m.kind === 'assistant' ? m.uuids : [m.uuid];
    const forks = ids.flatMap((id) => forkMarkers.get(id) ?? []);
    if (forks.length) {
      out.push(renderTranscriptSafe(run, ctx));
      run = [];
      for (const first of forks) {
        out.push(html`<p class="fork-marker" data-pagefind-ignore="all"><a href="#b-${attr(first)}">A branch was rewound here — open the abandoned version</a></p>`);
      }
    }
  }
  if (run.length) out.push(renderTranscriptSafe(run, ctx));
  // A turn too heavy for one page goes on over the next ones (src/lib/site/pages.ts).
  // Turn 0 holds what came before the first prompt: it has no prompt to name.
  const label = turn.index > 0 ? `Prompt ${turn.index}, continued from the previous page` : 'Continued from the previous page';
  const continued = isContinuation(turn) ? html`<p class="turn-continued" data-pagefind-ignore="all">${label}</p>` : html``;
  return html`<section class="turn" data-turn="${turn.index}">${continued}${joinHtml(out, NEWLINE)}</section>`;
}

function tocText(text: string): string {
  return shortenTitle(promptTitleText(text)) || '(empty prompt)';
}

/** Our own ids (uuids) only ever hold these characters; anything else is dropped. */
function attr(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '');
}
