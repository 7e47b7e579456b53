import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.xml': 'application/xml',
};

export interface StaticServer {
  url: string;
  /** Every request path that answered 404. */
  notFound: string[];
  close(): Promise<void>;
}

/**
 * Serves a built site on 127.0.0.1 under `base` (like GitHub Pages under /repo/). With `notFoundPage`, an
 * unknown path below the base is answered with the site's `404.html` (status 404), as GitHub Pages does.
 */
export async function serveStatic(root: string, base = '/', options: { notFoundPage?: boolean } = {}): Promise<StaticServer> {
  const prefix = base.endsWith('/') ? base : `${base}/`;
  const notFound: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (!path.startsWith(prefix)) {
      notFound.push(path);
      res.writeHead(404).end('not found');
      return;
    }
    let file = normalize(join(root, path.slice(prefix.length)));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      notFound.push(path);
      const page = join(root, '404.html');
      if (options.notFoundPage && existsSync(page)) {
        res.writeHead(404, { 'Content-Type': TYPES['.html'] });
        createReadStream(page).pipe(res);
      } else res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    notFound,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
