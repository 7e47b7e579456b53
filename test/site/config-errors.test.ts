import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/schemas/config.js';
import { buildSite, type BuildRun } from '../helpers/build.js';
import { repoRoot } from '../helpers/shared.js';
import { prFixtureRoot } from './share-source.js';

/** What a build says, as a new user reads it: config errors, notes, colour codes, the rebuild summary. */
const work = mkdtempSync(join(tmpdir(), 'sp-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ESC = '\u001b';

describe('a bad config', () => {
  let run: BuildRun;
  beforeAll(async () => {
    const file = join(work, 'bad.json');
    writeFileSync(file, JSON.stringify({ site: 'not a url', pageSize: 2, redaction: { extraPatterns: [{ name: 'corp', pattern: '([a-z]+' }] } }));
    run = await buildSite(join(work, 'bad-out'), { SESSIONPRESS_CONFIG: file });
  }, 120_000);

  it('fails with one clear block naming the file and each field, without Astro\'s wrapper or a stack trace', () => {
    expect(run.code).toBe(1);
    expect(run.log).toContain(`Invalid Sessionpress configuration (${join(work, 'bad.json')}):`);
    expect(run.log).toMatch(/^ {2}- site: must be an absolute URL/m);
    expect(run.log).toMatch(/^ {2}- pageSize: /m);
    expect(run.log).toMatch(/^ {2}- redaction\.extraPatterns\.0\.pattern: is not a valid JavaScript regular expression: Unterminated group$/m);
    for (const noise of ['Unable to load your Astro config', 'Stack trace', 'at loadConfig', 'unhandled error', repoRoot + '/src']) expect(run.log).not.toContain(noise);
  });

  it('says what is wrong with a regular expression', () => {
    const r = configSchema.safeParse({ redaction: { extraPatterns: [{ name: 'a', pattern: 'x{2,1}' }, { name: 'b', pattern: '(?<n>a)(?<n>b)' }] } });
    expect(r.success).toBe(false);
    const messages = r.error!.issues.map((i) => i.message);
    expect(messages[0]).toMatch(/^is not a valid JavaScript regular expression: numbers out of order/i);
    expect(messages[1]).toMatch(/^is not a valid JavaScript regular expression: Duplicate capture group name/i);
  });
});

describe('a build without notes, with an MDX note, and an unchanged rebuild', () => {
  const out = join(work, 'out');
  let first: BuildRun;
  let again: BuildRun;
  let withNote: BuildRun;
  beforeAll(async () => {
    const empty = join(work, 'no-notes');
    mkdirSync(empty);
    first = await buildSite(out, { SESSIONPRESS_SOURCE: prFixtureRoot, SESSIONPRESS_NOTES: empty });
    // Through Astro, though nothing changed (as after an edit outside the sessions): its log is what is checked.
    again = await buildSite(out, { SESSIONPRESS_SOURCE: prFixtureRoot, SESSIONPRESS_NOTES: empty, SESSIONPRESS_ALWAYS_BUILD: '1' });
    const notes = join(work, 'notes');
    mkdirSync(notes);
    // An MDX note that imports a component: the case where the bundler warned, in colour, about Astro's own directive.
    const badge = join(repoRoot, 'src', 'components', 'PrBadge.astro');
    writeFileSync(join(notes, 'hello.mdx'), `---\ntitle: Hello\n---\n\nimport PrBadge from '${badge}';\n\nA note with **MDX** and <PrBadge pr={{ number: 1, url: 'https://example.invalid/o/r/pull/1' }} />.\n`);
    withNote = await buildSite(join(work, 'out-note'), { SESSIONPRESS_SOURCE: prFixtureRoot, SESSIONPRESS_NOTES: notes });
  }, 600_000);

  it('does not warn that the notes collection is empty', () => {
    expect(first.code, first.log).toBe(0);
    expect(first.log).not.toMatch(/does not exist or is empty/);
    expect(first.log).not.toMatch(/No files found matching/);
    expect(first.log.match(/no notes \(add Markdown or MDX files to /g)).toHaveLength(1);
  });

  it('writes no colour codes into a log that is not a terminal', () => {
    expect(withNote.code, withNote.log).toBe(0);
    expect(existsSync(join(work, 'out-note', 'notes', 'hello', 'index.html'))).toBe(true);
    for (const r of [first, again, withNote]) expect(r.log.includes(ESC), r.log.slice(0, 2000)).toBe(false);
  });

  it('says an unchanged rebuild had nothing to process instead of "0 messages, 0 tool calls"', () => {
    expect(again.code, again.log).toBe(0);
    expect(first.log).toMatch(/3 sessions \(0 unchanged, 0 skipped\), 3 processed: \d+ messages, \d+ tool calls/);
    expect(again.log).toMatch(/3 sessions \(3 unchanged, 0 skipped\), nothing to process, /);
    expect(again.log).not.toMatch(/0 messages, 0 tool calls/);
  });
});

describe('npm install on an older Node', () => {
  it('the README explains the EBADENGINE warnings, and the pinned Node it relies on is the one the engines ask for', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    expect(readme).toMatch(/EBADENGINE\s+Unsupported\s+engine/);
    expect(readme).toMatch(/npm install --loglevel=error/);
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string }; dependencies: Record<string, string>; devDependencies: Record<string, string>; scripts: Record<string, string> };
    const major = (v: string) => Number(/(\d+)/.exec(v)![1]);
    // The explanation holds only while the template's scripts run on the pinned Node: a dev dependency that
    // satisfies the engines. The package itself pins none (a light install); bin/sessionpress.mjs fetches one.
    expect(major(pkg.devDependencies.node)).toBe(major(pkg.engines.node));
    expect(pkg.dependencies.node).toBeUndefined();
    for (const [name, script] of Object.entries(pkg.scripts)) expect(script, name).not.toMatch(/\/usr\/bin\/node|\bnvm\b/);
  });
});
