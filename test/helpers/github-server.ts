import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { issueComment, pullRequest, pullRequestFile } from '../fixtures/github-api.js';

/** A request the fake GitHub received. */
export interface RecordedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingMessage['headers'];
  body?: any;
}

export interface FakePullRequest {
  files: Array<ReturnType<typeof pullRequestFile>>;
  comments: Array<ReturnType<typeof issueComment>>;
  /** Fields of the pull request's own answer to replace (its base and head commits, say). */
  pull?: Record<string, unknown>;
}

/**
 * A local server that answers the GitHub REST endpoints `pr-comment` uses,
 * under an API root with a path (as GitHub Enterprise Server's `/api/v3`),
 * for pull requests of one repository; lists come two items a page with a
 * `Link: rel="next"` header, as GitHub paginates.
 */
export async function startFakeGithub(owner: string, repo: string, pulls: Map<number, FakePullRequest>) {
  const requests: RecordedRequest[] = [];
  let nextId = 9000;
  const root = '/api/v3';
  const server: Server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = raw ? JSON.parse(raw) : undefined;
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push({ method: req.method ?? '', url: `${url.pathname}${url.search}`, headers: req.headers, body });
    const send = (status: number, data: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(data));
    };
    const base = `${root}/repos/${owner}/${repo}`;
    const list = (items: unknown[]) => {
      const page = Number(url.searchParams.get('page') ?? '1');
      const per = 2;
      const next = page * per < items.length ? `<http://${req.headers.host}${url.pathname}?per_page=100&page=${page + 1}>; rel="next"` : '';
      send(200, items.slice((page - 1) * per, page * per), next ? { Link: next } : {});
    };
    let m: RegExpExecArray | null;
    if (req.headers.authorization !== 'Bearer test-token') return send(401, { message: 'Bad credentials' });
    if (req.method === 'GET' && (m = new RegExp(`^${base}/pulls/(\\d+)$`).exec(url.pathname))) {
      return pulls.has(Number(m[1])) ? send(200, { ...pullRequest(owner, repo, Number(m[1])), ...pulls.get(Number(m[1]))!.pull }) : send(404, { message: 'Not Found' });
    }
    if (req.method === 'GET' && (m = new RegExp(`^${base}/pulls/(\\d+)/files$`).exec(url.pathname))) return list(pulls.get(Number(m[1]))?.files ?? []);
    if ((m = new RegExp(`^${base}/issues/(\\d+)/comments$`).exec(url.pathname))) {
      const pr = pulls.get(Number(m[1]));
      if (!pr) return send(404, { message: 'Not Found' });
      if (req.method === 'GET') return list(pr.comments);
      if (req.method === 'POST') {
        const c = issueComment(owner, repo, Number(m[1]), nextId++, body.body);
        pr.comments.push(c);
        return send(201, c);
      }
    }
    if (req.method === 'PATCH' && (m = new RegExp(`^${base}/issues/comments/(\\d+)$`).exec(url.pathname))) {
      for (const pr of pulls.values()) {
        const c = pr.comments.find((x) => x.id === Number(m![1]));
        // Only the token's own comments may be edited (here: those of the Actions bot).
        if (c && c.user.login !== 'github-actions[bot]') return send(403, { message: 'Resource not accessible by integration' });
        if (c) {
          c.body = body.body;
          return send(200, c);
        }
      }
      return send(404, { message: 'Not Found' });
    }
    send(404, { message: 'Not Found' });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  return {
    apiUrl: `http://127.0.0.1:${port}${root}`,
    requests,
    /** Requests that write (create or update a comment). */
    writes: () => requests.filter((r) => r.method !== 'GET'),
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
