/**
 * Test helpers: paths to the shared data, loading sessions through the real
 * build path, and a render context whose assets are recorded in memory.
 */
import { createHash } from 'node:crypto';
import { discoverSources, type SessionSource } from '../../src/lib/discover.js';
import { assignSiblingAgents, openSession } from '../../src/lib/build/open-session.js';
import { loadHighlighter } from '../../src/lib/render/highlight.js';
import { createRenderContext, type RenderContext, type RenderContextOptions } from '../../src/lib/render/render-message.js';
import type { Session } from '../../src/lib/transcript/types.js';

export { corpusRoot, fixturesRoot, loadExpect, repoRoot } from './shared.js';

/** Loads every session under a root (projects folder) through the real build path (unredacted: tests of the model and renderers). */
export async function loadSessions(root: string, filter?: (s: SessionSource) => boolean): Promise<Session[]> {
  const layout = await discoverSources(root);
  const owners = await assignSiblingAgents(layout);
  const out: Session[] = [];
  for (const source of layout.sessions) {
    if (filter && !filter(source)) continue;
    const loaded = await openSession(source, { root, owners, redaction: false });
    if (loaded.result.ok) out.push(loaded.result.session);
  }
  return out;
}

export interface Assets {
  written: Array<{ url: string; mediaType: string; bytes: number }>;
}

/** A render context whose `emitAsset` records what it was given and returns a content-hashed relative URL. */
export async function testContext(options: Partial<RenderContextOptions> = {}): Promise<{ ctx: RenderContext; assets: Assets }> {
  const assets: Assets = { written: [] };
  await loadHighlighter();
  const ctx = createRenderContext({
    emitAsset(bytes, mediaType) {
      const ext = mediaType.split('/')[1] ?? 'bin';
      const url = `/assets/${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.${ext}`;
      assets.written.push({ url, mediaType, bytes: bytes.length });
      return url;
    },
    ...options,
  });
  return { ctx, assets };
}
