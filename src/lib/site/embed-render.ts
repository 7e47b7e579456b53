import { discoverSources } from '../discover.js';
import { assignSiblingAgents, loadSession } from '../pipeline.js';
import { createRedactor } from '../redact/index.js';
import { usernamesFromFolder } from '../redact/usernames.js';
import { createRenderContext, prepareMessages, renderTranscript } from '../render/render-message.js';
import type { Session } from '../transcript/types.js';
import { projectSlugOf, sessionEntryId } from './build-entries.js';
import { EmbedError, resolveEmbed, type EmbedRef } from './embed.js';
import { pageOfMessage } from './pages.js';
import { assetName } from './render-session.js';

export interface EmbedSettings {
  sourceDir: string;
  base: string;
  pageSize: number;
  redaction: Parameters<typeof createRedactor>[0];
}

export interface RenderedEmbed {
  html: string;
  /** Link to the embedded part on the session page. */
  href: string;
  title: string;
  label: string;
}

const sessions = new Map<string, Promise<{ session: Session; projectSlug: string }>>();

/** Loads (once per build) the session whose id starts with `prefix`, redacted like the site's pages. */
function loadById(settings: EmbedSettings, prefix: string): Promise<{ session: Session; projectSlug: string }> {
  let p = sessions.get(prefix);
  if (!p) {
    p = (async () => {
      const layout = await discoverSources(settings.sourceDir);
      const matches = layout.sessions.filter((s) => s.sessionId.startsWith(prefix));
      if (matches.length !== 1) {
        throw new EmbedError(matches.length ? `session="${prefix}" matches ${matches.length} sessions; use a longer prefix` : `session="${prefix}": no session id starts with it`);
      }
      const source = matches[0];
      const redactor = createRedactor({ ...settings.redaction, usernames: usernamesFromFolder(source.projectFolder) });
      const loaded = await loadSession(source, settings.sourceDir, await assignSiblingAgents(layout), redactor);
      if (!loaded.result.ok) throw new EmbedError(`session="${prefix}" has no page (${loaded.result.reason})`);
      return { session: loaded.result.session, projectSlug: projectSlugOf(source.projectFolder) };
    })();
    sessions.set(prefix, p);
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
  const base = settings.base.endsWith('/') ? settings.base : `${settings.base}/`;
  const ctx = createRenderContext({
    // Same content-hashed name the session page uses, so the file already exists in the site.
    emitAsset: (bytes: Buffer, mediaType: string) => `${base}assets/${assetName(bytes, mediaType)}`,
    indexToolOutput: false,
    renderThinking: true,
    indexThinking: false,
    turns: session.turns,
  });
  await prepareMessages(picked.messages);
  const pageUrl = `${base}sessions/${sessionEntryId(projectSlug, session.sessionId)}/`;
  const page = picked.anchor ? pageOfMessage(session, picked.anchor, settings.pageSize)?.page ?? 1 : 1;
  const href = `${page > 1 ? `${pageUrl}${page}/` : pageUrl}${picked.anchor ? `#m-${picked.anchor}` : ''}`;
  return { html: renderTranscript(picked.messages, ctx), href, title: session.title, label: picked.label };
}
