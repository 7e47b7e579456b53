/**
 * The few GitHub REST endpoints `sessionpress pr-comment` uses, on the global
 * `fetch`: a pull request, its files, its issue comments (list, create,
 * update). `GITHUB_API_URL` names another API root (GitHub Enterprise Server:
 * `https://HOST/api/v3`); lists follow `Link: <…>; rel="next"`, and only
 * within that root, so the token is never sent anywhere else.
 */

/** The API version the requests ask for (`X-GitHub-Api-Version`). */
export const GITHUB_API_VERSION = '2022-11-28';
export const DEFAULT_API_URL = 'https://api.github.com';

/** What the command reads of a pull request (GET /repos/{owner}/{repo}/pulls/{pull_number}). */
export interface PullRequest {
  number: number;
  html_url: string;
  title?: string;
  state?: string;
  /** The commits compared: the base branch's tip and the pull request's head (blame reads them from the checkout). */
  base?: { sha?: string };
  head?: { sha?: string };
}

/** A changed file of a pull request (GET …/pulls/{pull_number}/files). */
export interface PullRequestFile {
  filename: string;
  status: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged' | string;
  previous_filename?: string;
}

/** An issue comment (a pull request's conversation comments are its issue's). */
export interface IssueComment {
  id: number;
  body?: string;
  html_url: string;
  user?: { login: string; type?: string } | null;
}

/** A request GitHub answered with an error status. */
export class GithubError extends Error {
  override name = 'GithubError';
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

export interface GithubClientOptions {
  /** Sent as `Authorization: Bearer …`; without one, only public data can be read. */
  token?: string;
  /** The API root (default https://api.github.com). */
  apiUrl?: string;
  fetch?: typeof globalThis.fetch;
}

export type GithubClient = ReturnType<typeof createGithubClient>;

/** A small REST client: JSON in and out, GitHub's headers, errors with GitHub's own message. */
export function createGithubClient(options: GithubClientOptions = {}) {
  const root = (options.apiUrl || DEFAULT_API_URL).replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;
  const headers: Record<string, string> = {
    Accept: 'application/vnd.github+json',
    'X-GitHub-Api-Version': GITHUB_API_VERSION,
    'User-Agent': 'sessionpress',
  };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;

  async function send(method: string, url: string, body?: unknown): Promise<Response> {
    const res = await doFetch(url, {
      method,
      headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) {
      let detail = '';
      try {
        detail = String(((await res.json()) as { message?: unknown }).message ?? '');
      } catch {
        // not JSON: the status says enough
      }
      throw new GithubError(`GitHub answered ${res.status} to ${method} ${url.slice(root.length) || '/'}${detail ? `: ${detail}` : ''}`, res.status);
    }
    return res;
  }

  /** An address of the API: a path under the root, or a `next` link that must lie under it. */
  function urlOf(pathOrUrl: string): string {
    if (pathOrUrl.startsWith('/')) return `${root}${pathOrUrl}`;
    if (pathOrUrl === root || pathOrUrl.startsWith(`${root}/`) || pathOrUrl.startsWith(`${root}?`)) return pathOrUrl;
    throw new GithubError(`refusing to follow a link outside ${root}: ${pathOrUrl}`, 0);
  }

  return {
    /** One request; resolves with the parsed JSON answer. */
    async request<T>(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<T> {
      return (await (await send(method, urlOf(path), body)).json()) as T;
    },
    /** Every item of a list, page after page (100 a page). */
    async list<T>(path: string): Promise<T[]> {
      const items: T[] = [];
      let next: string | undefined = urlOf(`${path}${path.includes('?') ? '&' : '?'}per_page=100`);
      for (let pages = 0; next && pages < 100; pages++) {
        const res = await send('GET', urlOf(next));
        const page = (await res.json()) as T[];
        if (!Array.isArray(page)) throw new GithubError(`GitHub answered GET ${path} with something that is not a list`, res.status);
        items.push(...page);
        next = nextLink(res.headers.get('link'));
      }
      return items;
    },
  };
}

/** The `rel="next"` address of a `Link` header, if any. */
export function nextLink(header: string | null): string | undefined {
  for (const part of (header ?? '').split(',')) {
    const m = /^\s*<([^>]+)>\s*;(.*)$/.exec(part);
    if (m && /\brel="?([^"]*\s)?next(\s[^"]*)?"?/.test(m[2])) return m[1];
  }
  return undefined;
}

/** The endpoints, by name: each path exactly as GitHub's REST reference writes it. */
export function pullRequestApi(client: GithubClient, owner: string, repo: string) {
  const base = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  return {
    pull: (n: number) => client.request<PullRequest>('GET', `${base}/pulls/${n}`),
    files: (n: number) => client.list<PullRequestFile>(`${base}/pulls/${n}/files`),
    comments: (n: number) => client.list<IssueComment>(`${base}/issues/${n}/comments`),
    createComment: (n: number, body: string) => client.request<IssueComment>('POST', `${base}/issues/${n}/comments`, { body }),
    updateComment: (id: number, body: string) => client.request<IssueComment>('PATCH', `${base}/issues/comments/${id}`, { body }),
  };
}
