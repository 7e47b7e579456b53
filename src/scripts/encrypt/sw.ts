/**
 * The service worker of an encrypted site: answers every request below the
 * site's base by fetching the sealed file of that path (`x/<name>`), opening
 * it with the site key and answering with the plaintext, so pages, scripts,
 * styles and pagefind's chunks (fetched with ordinary requests) read as on a
 * public site. Bundled by src/integrations/encrypt.ts into `<base>sw.js`.
 *
 * The key: a tab hands it over after unlocking and whenever a page loads
 * (guard.ts), from its session storage; the worker keeps it in memory only.
 * A worker the browser stopped and started again has none: it asks the
 * requesting page for it (a subresource), or answers a navigation with the
 * unlock page, which finds the key in the tab's session storage, hands it
 * over and reloads without asking anything.
 */
import { fileKeys, fileName, FLAG_DEFLATED, fromBase64Url, openFile, SealError, type FileKeys } from '../../lib/encrypt/crypto';
import { contentTypeOf, fileOfRequest, GUARD_SCRIPT, isPassThrough, SEALED_DIR, UNLOCK_DIR } from '../../lib/encrypt/layout';

// The few parts of the service worker's scope used here (the project's types are the DOM's, not a worker's).
interface ExtendableEvent {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  clientId: string;
  respondWith(response: Promise<Response>): void;
}
interface ExtendableMessageEvent extends ExtendableEvent {
  data: unknown;
  ports: readonly MessagePort[];
}
interface WorkerScope {
  location: Location;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void>; get(id: string): Promise<{ postMessage(message: unknown, transfer: Transferable[]): void } | undefined> };
  addEventListener(type: 'install', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'message', listener: (event: ExtendableMessageEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
}
declare const self: WorkerScope;

const base = new URL('./', self.location.href).pathname;
let current: { raw: string; keys: FileKeys } | undefined;

async function setKey(raw: string): Promise<void> {
  if (current?.raw === raw) return;
  current = { raw, keys: await fileKeys(fromBase64Url(raw)) };
}

self.addEventListener('install', () => {
  void self.skipWaiting();
});
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('message', (event) => {
  const data = event.data as { type?: string; key?: string } | undefined;
  const port = event.ports[0];
  if (data?.type === 'sessionpress-key' && typeof data.key === 'string') {
    event.waitUntil(
      setKey(data.key).then(
        () => port?.postMessage({ ok: true }),
        () => port?.postMessage({ ok: false }),
      ),
    );
  } else if (data?.type === 'sessionpress-lock') {
    current = undefined;
    port?.postMessage({ ok: true });
  }
});

/** Asks a page for the key from its tab's session storage (a worker restarted by the browser has none). */
async function keyFromClient(clientId: string): Promise<FileKeys | undefined> {
  const client = clientId ? await self.clients.get(clientId) : undefined;
  if (!client) return undefined;
  const raw = await new Promise<string | undefined>((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(undefined), 3000);
    channel.port1.onmessage = (e) => {
      clearTimeout(timer);
      resolve(typeof e.data?.key === 'string' ? e.data.key : undefined);
    };
    client.postMessage({ type: 'sessionpress-need-key' }, [channel.port2]);
  });
  if (!raw) return undefined;
  try {
    await setKey(raw);
  } catch {
    return undefined;
  }
  return current?.keys;
}

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== self.location.origin || event.request.method !== 'GET') return;
  const path = fileOfRequest(url.pathname, base);
  if (path === undefined || isPassThrough(path)) return;
  event.respondWith(answer(event, url, path));
});

async function answer(event: FetchEvent, url: URL, path: string): Promise<Response> {
  const navigation = event.request.mode === 'navigate';
  const keys = current?.keys ?? (navigation ? undefined : await keyFromClient(event.clientId));
  if (!keys) {
    if (navigation) return unlockPage();
    return new Response('This site is locked: open any page of it to unlock.', { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
  let opened = await openPath(keys, path);
  // `a/b` without a slash: a static host answers with `a/b/index.html` by redirecting to `a/b/`.
  if (opened.status === 404 && !/\.[^/]*$/.test(path) && (await openPath(keys, `${path}/index.html`)).status === 200) return Response.redirect(`${url.pathname}/${url.search}${url.hash}`, 301);
  if (opened.status === 404 && navigation) {
    const notFound = await openPath(keys, '404.html');
    if (notFound.status === 200) opened = { ...notFound, status: 404 };
  }
  if (opened.status !== 200 || !opened.body) return failure(opened.status, opened.reason ?? 'not found', navigation);
  let type = contentTypeOf(opened.path);
  let body: BodyInit = opened.body as Uint8Array<ArrayBuffer>;
  if (navigation && type.startsWith('text/html')) body = withGuard(new TextDecoder().decode(opened.body));
  else if (navigation && /^(text\/|application\/(json|xml))/.test(type)) {
    // A Markdown twin, llms.txt, a listing opened as a page: shown as text in a page that loads the guard
    // first (a text file cannot stop itself in a tab that has not unlocked the site).
    body = withGuard(`<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"></head><body><pre style="white-space:pre-wrap;overflow-wrap:anywhere;margin:1rem">${escapeHtml(new TextDecoder().decode(opened.body))}</pre></body></html>`);
    type = 'text/html; charset=utf-8';
  }
  return new Response(body, { status: opened.status, headers: { 'Content-Type': type, 'Cache-Control': 'no-store' } });
}

interface Opened {
  status: number;
  path: string;
  body?: Uint8Array;
  reason?: string;
}

/** The plaintext of the file at `path`: fetched sealed, opened, inflated. */
async function openPath(keys: FileKeys, path: string): Promise<Opened> {
  const name = await fileName(keys, path);
  let res: Response;
  try {
    // The sealed files never change under a name but for a new build: the browser's cache may keep them.
    res = await fetch(`${base}${SEALED_DIR}/${name}`, { cache: 'no-cache' });
  } catch {
    return { status: 503, path, reason: 'the site could not be reached' };
  }
  if (res.status === 404) return { status: 404, path, reason: 'not found' };
  if (!res.ok) return { status: 502, path, reason: `the server answered ${res.status}` };
  try {
    const { flags, payload } = await openFile(keys, path, new Uint8Array(await res.arrayBuffer()));
    const body = flags & FLAG_DEFLATED ? await inflate(payload) : payload;
    return { status: 200, path, body };
  } catch (err) {
    const reason = err instanceof SealError ? err.message : 'the file could not be read';
    return { status: 500, path, reason: `this page could not be decrypted: ${reason}` };
  }
}

async function inflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * A decrypted page loads the guard before anything else: it stops the page
 * in a tab that has not unlocked the site itself (the worker serves every tab
 * of the site, the key belongs to one), and hands the tab's key to the worker.
 */
function withGuard(html: string): string {
  const tag = `<script src="${base}${GUARD_SCRIPT}"></script>`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  return head ? `${html.slice(0, head.index + head[0].length)}${tag}${html.slice(head.index + head[0].length)}` : `${tag}${html}`;
}

/** The unlock page as published (plaintext, from the network), for a navigation the worker has no key for. */
async function unlockPage(): Promise<Response> {
  const res = await fetch(`${base}${UNLOCK_DIR}/index.html`, { cache: 'no-cache' });
  return new Response(res.body, { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } });
}

/** A clear message instead of the page: a damaged or changed file, a missing one, an unreachable server. */
function failure(status: number, reason: string, navigation: boolean): Response {
  if (!navigation) return new Response(reason, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const title = status === 404 ? 'Page not found' : 'This page could not be opened';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem}</style></head>
<body><main data-sessionpress-error><h1>${title}</h1><p>${escapeHtml(reason)}.</p><p><a href="${base}">Back to the start</a></p></main></body></html>`;
  return new Response(html, { status, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } });
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
