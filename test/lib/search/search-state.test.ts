import { describe, expect, it } from 'vitest';
import { readSearchState, searchStateQuery } from '../../../src/lib/search/search-state.js';

describe('search state in the URL', () => {
  it('round-trips query, filters and sort', () => {
    const state = { q: 'rate limit', filters: { project: 'api/v2', tool: 'Bash' }, sort: 'date:desc' };
    const query = searchStateQuery(state);
    expect(query).toBe('?q=rate+limit&project=api%2Fv2&tool=Bash&sort=date%3Adesc');
    expect(readSearchState(query)).toEqual(state);
  });

  it('leaves defaults and unknown parameters out', () => {
    expect(searchStateQuery({ q: '', filters: {}, sort: 'relevance' })).toBe('');
    expect(readSearchState('?q=%20x%20&highlight=y&evil=1')).toEqual({ q: 'x', filters: {}, sort: 'relevance' });
  });
});
