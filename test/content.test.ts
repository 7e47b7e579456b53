import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderSourceFiles } from '../src/lib/build/fingerprint.js';
import { repoRoot } from './helpers/shared.js';

describe('sessionpress/content', () => {
  it('reaches no `astro:content` from the content config: Astro loads it through Vite before every build', () => {
    const files = renderSourceFiles(join(repoRoot, 'src/content.ts'));
    // The walk reaches the loader and what it imports, so the check covers them too.
    expect(files.map((f) => relative(repoRoot, f))).toContain('src/loaders/sessions-loader.ts');
    const importing = files.filter((f) => /from\s*['"]astro:content['"]|import\(\s*['"]astro:content['"]/.test(readFileSync(f, 'utf8')));
    expect(importing.map((f) => relative(repoRoot, f))).toEqual([]);
  });
});
