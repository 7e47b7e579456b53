import { discoverSources, type SourceLayout } from '../discover.js';
import { assignSiblingAgents, loadSession } from '../pipeline.js';
import { createRedactor } from '../redact/index.js';
import { usernamesFromFolder } from '../redact/usernames.js';
import { createRenderContext, prepareMessages, renderMessage } from '../render/render-message.js';
import type { Session } from '../transcript/types.js';
import { projectSlugOf, sessionEntryId } from './build-entries.js';
import { EmbedError, resolveEmbed, type EmbedRef } from './embed.js';
import { pageOfMessage } from './pages.js';
import { assetName } from './render-session.js';
import { withTrailingSlash } from './slug.js';

export interface EmbedSettings {
  sourceDir: string;
  base: string;
  pageSize: number;
  redaction: Parameters<typeof createRedactor>[0];
  /** The site's search settings: the session pages mark tool output and thinking for the index by them, so embeds must too. */
  search: { indexToolOutput: boolean; indexThinking: boolean };
}

export interface RenderedEmbed {
  html: string;
  /** Link to the embedded part on the session page. */
  href: string;
  title: string;
  label: string;
}

type LoadedEmbedSession = { session: Session; projectSlug: string };

// Module-level caches live for one build: notes usually quote the same few sessions many times.
const layouts = new Map<string, Promise<{ layout: SourceLayout; owners: Map<string, string[]> }>>();
const sessions = new Map<string, Promise<LoadedEmbedSession>>();

function layoutOf(sourceDir: string): Promise<{ layout: SourceLayout; owners: Map<string, string[]> }> {
  let p = layouts.get(sourceDir);
  if (!p) {
    p = discoverSources(sourceDir).then(async (layout) => ({ layout, owners: await assignSiblingAgents(layout) }));
    layouts.set(sourceDir, p);
  }
  return p;
}

/** Loads (once per build) the session whose id starts with `prefix`, redacted like the site's pages. */
function loadById(settings: EmbedSettings, prefix: string): Promise<LoadedEmbedSession> {
  if (typeof prefix !== 'string' || prefix.trim() === '') return Promise.reject(new EmbedError('session must be a session id or a prefix of one'));
  // Keyed by everything that changes the result, so callers with other settings (tests) never share an entry.
  const key = JSON.stringify([settings.sourceDir, settings.redaction, prefix]);
  let p = sessions.get(key);
  if (!p) {
    p = (async () => {
      const { layout, owners } = await layoutOf(settings.sourceDir);
      const matches = layout.sessions.filter((s) => s.sessionId.startsWith(prefix));
      if (matches.length !== 1) {
        throw new EmbedError(matches.length ? `session="${prefix}" matches ${matches.length} sessions; use a longer prefix` : `session="${prefix}": no session id starts with it`);
      }
      const source = matches[0];
      // A fresh redactor per session, as for the session pages: placeholders are numbered per session.
      const redactor = createRedactor({ ...settings.redaction, usernames: usernamesFromFolder(source.projectFolder) });
      const loaded = await loadSession(source, settings.sourceDir, owners, redactor);
      if (!loaded.result.ok) throw new EmbedError(`session="${prefix}" has no page (${loaded.result.reason})`);
      return { session: loaded.result.session, projectSlug: projectSlugOf(source.projectFolder) };
    })();
    sessions.set(key, p);
  }
  return p;
}

/**
 * Renders the part of a transcript a note embeds, with the same renderer as the
 * session page, and the link to it there. Throws an EmbedError naming the
 * reference when it does not resolve.
 */
export async function renderEmbed(settings: EmbedSettings, ref: EmbedRef): Promise<RenderedEmbed> {
  const { session, projectSlug } = await loadById(settings, ref.session);
  const picked = resolveEmbed(session, ref);
  const base = withTrailingSlash(settings.base);
  const ctx = createRenderContext({
    // Same content-hashed name the session page uses, so the file already exists in the site.
    emitAsset: (bytes: Buffer, mediaType: string) => `${base}assets/${assetName(bytes, mediaType)}`,
    indexToolOutput: settings.search.indexToolOutput,
    renderThinking: true,
    indexThinking: settings.search.indexThinking,
    turns: session.turns,
  });
  await prepareMessages(picked.messages);
  // Message by message rather than renderTranscript (same output, joined the same way), to know
  // which messages show at all: meta caveats and synthetic filler render nothing on the session page either.
  const shown: Array<{ uuid: string; html: string }> = [];
  for (const m of picked.messages) {
    const html = renderMessage(m, ctx);
    if (html) shown.push({ uuid: m.uuid, html });
  }
  if (shown.length === 0) {
    throw new EmbedError(`it names only messages the session page does not show (such as meta caveats); pick a visible one`);
  }
  // The link goes to the first message the reader sees, which has an anchor on the session page.
  const anchor = picked.anchor === undefined ? undefined : shown[0].uuid;
  const pageUrl = `${base}sessions/${sessionEntryId(projectSlug, session.sessionId)}/`;
  const page = anchor ? pageOfMessage(session, anchor, settings.pageSize)?.page ?? 1 : 1;
  const href = `${page > 1 ? `${pageUrl}${page}/` : pageUrl}${anchor ? `#m-${anchor}` : ''}`;
  // A range counts what the reader sees, not the hidden entries inside it.
  const label = picked.kind === 'range' ? `${shown.length} message${shown.length === 1 ? '' : 's'}` : picked.label;
  return { html: shown.map((s) => s.html).join('\n'), href, title: session.title, label };
}
