import type { createRedactor } from '../redact/index.js';
import { createRenderContext, prepareMessages, renderMessageSafe } from '../render/render-message.js';
import { html, joinHtml, type SafeHtml } from '../render/sanitize.js';
import type { Session } from '../transcript/types.js';
import { EmbedError, resolveEmbed, type EmbedRef } from '../site/embed.js';
import { pageOfMessage } from '../site/pages.js';
import { assetUrl, sessionUrl } from '../site/urls.js';
import { openSessionById, SessionLookupError } from './open-session.js';
import { assetName } from './render-session.js';

export interface EmbedSettings {
  sourceDir: string;
  base: string;
  pageSize: number;
  redaction: Parameters<typeof createRedactor>[0];
  /** The site's search settings: the session pages mark tool output and thinking for the index by them, so embeds must too. */
  search: { indexToolOutput: boolean; indexThinking: boolean };
}

export interface RenderedEmbed {
  /** The rendered excerpt, for the page (src/components/Html.astro). */
  markup: SafeHtml;
  /** `markup` as text. */
  html: string;
  /** Link to the embedded part on the session page. */
  href: string;
  title: string;
  label: string;
}

type LoadedEmbedSession = { session: Session; entryId: string };

// Lives for one build: notes usually quote the same few sessions many times.
const sessions = new Map<string, Promise<LoadedEmbedSession>>();

/** Opens (once per build) the session whose id starts with `prefix`, redacted like the site's pages. */
function loadById(settings: EmbedSettings, prefix: string): Promise<LoadedEmbedSession> {
  // Keyed by everything that changes the result, so callers with other settings (tests) never share an entry.
  const key = JSON.stringify([settings.sourceDir, settings.redaction, prefix]);
  let p = sessions.get(key);
  if (!p) {
    p = openSessionById(settings.sourceDir, prefix, settings.redaction ?? {}).then(
      (opened) => ({ session: opened.result.session, entryId: opened.identity.entryId }),
      (err) => {
        throw err instanceof SessionLookupError ? new EmbedError(embedLookupMessage(prefix, err)) : err;
      },
    );
    sessions.set(key, p);
  }
  return p;
}

/** Says what is wrong with an `id=` reference in the words of the page that holds it. */
function embedLookupMessage(prefix: string, err: SessionLookupError): string {
  if (typeof prefix !== 'string' || prefix.trim() === '') return 'id must be a session id or a prefix of one';
  if (err.kind === 'ambiguous') return `id="${prefix}" matches ${err.matches} sessions; use a longer prefix`;
  if (err.kind === 'none') return `id="${prefix}": no session id starts with it`;
  return `id="${prefix}" ${err.message.replace(/^.*? has no page/, 'has no page')}`;
}

/**
 * Renders the part of a transcript a note embeds, with the same renderer as the
 * session page, and the link to it there. Throws an EmbedError naming the
 * reference when it does not resolve.
 */
export async function renderEmbed(settings: EmbedSettings, ref: EmbedRef): Promise<RenderedEmbed> {
  const { session, entryId } = await loadById(settings, ref.id);
  const picked = resolveEmbed(session, ref);
  const ctx = createRenderContext({
    // Same content-hashed name the session page uses, so the file already exists in the site.
    emitAsset: (bytes: Buffer, mediaType: string) => assetUrl(settings.base, assetName(bytes, mediaType)),
    indexToolOutput: settings.search.indexToolOutput,
    renderThinking: true,
    indexThinking: settings.search.indexThinking,
    turns: session.turns,
  });
  await prepareMessages(picked.messages);
  // Message by message rather than renderTranscript (same output, joined the same way), to know
  // which messages show at all: meta caveats and synthetic filler render nothing on the session page either.
  const shown: Array<{ uuid: string; html: SafeHtml }> = [];
  for (const m of picked.messages) {
    const markup = renderMessageSafe(m, ctx);
    if (markup.value) shown.push({ uuid: m.uuid, html: markup });
  }
  if (shown.length === 0) {
    throw new EmbedError(`it names only messages the session page does not show (such as meta caveats); pick a visible one`);
  }
  // The link goes to the first message the reader sees, which has an anchor on the session page.
  const anchor = picked.anchor === undefined ? undefined : shown[0].uuid;
  const page = anchor ? pageOfMessage(session, anchor, settings.pageSize)?.page ?? 1 : 1;
  const href = sessionUrl(settings.base, entryId, { page, message: anchor });
  // A range counts what the reader sees, not the hidden entries inside it.
  const label = picked.kind === 'range' ? `${shown.length} message${shown.length === 1 ? '' : 's'}` : picked.label;
  const markup = joinHtml(shown.map((s) => s.html), html`\n`);
  return { markup, html: markup.value, href, title: session.title, label };
}
