import { describe, expect, it } from 'vitest';
import { createGithubClient, GithubError, nextLink, pullRequestApi } from '../../../../scripts/lib/pr-comment/github.js';

/** A fetch that answers from a table and records what it was asked. */
function fakeFetch(pages: Record<string, { body: unknown; link?: string; status?: number }>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fn = (async (url: string | URL, init: RequestInit = {}) => {
    calls.push({ url: String(url), init });
    const page = pages[String(url)];
    if (!page) return new Response(JSON.stringify({ message: 'Not Found' }), { status: 404 });
    return new Response(JSON.stringify(page.body), { status: page.status ?? 200, headers: page.link ? { Link: page.link } : {} });
  }) as typeof fetch;
  return { fn, calls };
}

describe('nextLink', () => {
  it('reads the rel="next" address of a Link header, whatever the order', () => {
    const header = '<https://api.github.com/repositories/1/issues/2/comments?page=3>; rel="last", <https://api.github.com/repositories/1/issues/2/comments?page=2>; rel="next"';
    expect(nextLink(header)).toBe('https://api.github.com/repositories/1/issues/2/comments?page=2');
    expect(nextLink('<https://x/?page=1>; rel="prev"')).toBeUndefined();
    expect(nextLink(null)).toBeUndefined();
  });
});

describe('createGithubClient', () => {
  it("sends GitHub's headers and the token, under an Enterprise API root, and follows pages", async () => {
    const root = 'https://ghe.example.com/api/v3';
    const { fn, calls } = fakeFetch({
      [`${root}/repos/acme/shop/pulls/4/files?per_page=100`]: { body: [{ filename: 'a', status: 'added' }], link: `<${root}/repos/acme/shop/pulls/4/files?per_page=100&page=2>; rel="next"` },
      [`${root}/repos/acme/shop/pulls/4/files?per_page=100&page=2`]: { body: [{ filename: 'b', status: 'removed' }] },
      [`${root}/repos/acme/shop/issues/comments/7`]: { body: { id: 7, html_url: 'u', body: 'x' } },
    });
    const api = pullRequestApi(createGithubClient({ token: 't0k', apiUrl: `${root}/`, fetch: fn }), 'acme', 'shop');
    expect((await api.files(4)).map((f) => f.filename)).toEqual(['a', 'b']);
    await api.updateComment(7, 'new body');
    const headers = calls[0].init.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer t0k');
    expect(headers.Accept).toBe('application/vnd.github+json');
    expect(headers['X-GitHub-Api-Version']).toBeTruthy();
    expect(calls[2].init.method).toBe('PATCH');
    expect(JSON.parse(String(calls[2].init.body))).toEqual({ body: 'new body' });
  });

  it('never follows a next link outside the API root (the token would go with it)', async () => {
    const root = 'https://api.github.com';
    const { fn, calls } = fakeFetch({
      [`${root}/repos/acme/shop/issues/1/comments?per_page=100`]: { body: [], link: '<https://evil.example/steal?page=2>; rel="next"' },
    });
    const api = pullRequestApi(createGithubClient({ token: 't0k', fetch: fn }), 'acme', 'shop');
    await expect(api.comments(1)).rejects.toThrow(/outside https:\/\/api\.github\.com/);
    expect(calls.map((c) => c.url)).toEqual([`${root}/repos/acme/shop/issues/1/comments?per_page=100`]);
  });

  it("reports GitHub's error message and status", async () => {
    const { fn } = fakeFetch({ 'https://api.github.com/repos/acme/shop/pulls/1': { body: { message: 'Resource not accessible by integration' }, status: 403 } });
    const err = await pullRequestApi(createGithubClient({ fetch: fn }), 'acme', 'shop').pull(1).catch((e) => e);
    expect(err).toBeInstanceOf(GithubError);
    expect(err.status).toBe(403);
    expect(err.message).toMatch(/403 .*Resource not accessible by integration/);
  });
});
