/**
 * The GitHub Action (action.yml at the repository root) and the workflow
 * files the README gives for it: inputs documented, inputs reaching shell
 * scripts only through `env:`, every `sessionpress` command line one the
 * command accepts (checked by the command's own argument parser), and every
 * README workflow valid YAML that uses only declared inputs and grants the
 * permissions what it enables needs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../scripts/cli.js';
import { repoRoot } from '../helpers/shared.js';

// js-yaml ships no types of its own; this test needs only `load`.
const { load } = createRequire(import.meta.url)('js-yaml') as { load: (text: string) => unknown };

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Action {
  name: string;
  description: string;
  inputs: Record<string, { description?: string; default?: unknown; required?: boolean }>;
  runs: { using: string; steps: Step[] };
}

const action = load(readFileSync(join(repoRoot, 'action.yml'), 'utf8')) as Action;
const steps = action.runs.steps;
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');


/** The `sessionpress …` command lines of a shell script, as argument lists; variables become a placeholder value. */
function sessionpressCalls(script: string): string[][] {
  const calls: string[][] = [];
  for (const line of script.replace(/\\\n/g, ' ').split('\n')) {
    const m = /(?:^|[;&|]\s*)sessionpress\s+(.*)$/.exec(line.trim());
    if (!m) continue;
    // ${VAR:+--flag "$VAR"} passes the flag when VAR is set: check it as passed.
    const words = m[1].replace(/\$\{\w+:\+([^}]*)\}/g, '$1').match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
    calls.push(words.map((w) => w.replace(/^(["'])(.*)\1$/, '$2')).map((w) => (w.includes('$') ? 'x' : w)));
  }
  return calls;
}

const runSteps = steps.filter((s) => s.run !== undefined);
const calls = runSteps.flatMap((s) => sessionpressCalls(s.run!));

describe('action.yml', () => {
  it('is a composite action whose every input has a description and a default', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.description.length).toBeGreaterThan(20);
    for (const [name, input] of Object.entries(action.inputs)) {
      expect(input.description?.trim().length ?? 0, name).toBeGreaterThan(20);
      expect(input, name).toHaveProperty('default');
    }
    for (const name of ['source', 'comment', 'publish', 'site', 'base']) expect(action.inputs).toHaveProperty(name);
  });

  it('passes inputs to shell scripts through env, never as ${{ }} inside a script', () => {
    expect(runSteps.length).toBeGreaterThan(2);
    for (const s of runSteps) {
      expect(s.run, s.name).not.toContain('${{');
      expect(s.shell, s.name).toBe('bash');
    }
  });

  it('uses every input it declares, and declares every input it uses', () => {
    // Comment lines may mention ${{ inputs.x }}; only the YAML counts.
    const text = readFileSync(join(repoRoot, 'action.yml'), 'utf8').replace(/^\s*#.*$/gm, '');
    const expressions = [...text.matchAll(/\$\{\{([^}]*)\}\}/g)].map((m) => m[1]);
    // `if:` conditions are expressions without the braces.
    const conditions = steps.map((s) => s.if ?? '');
    const used = new Set([...expressions, ...conditions].flatMap((e) => [...e.matchAll(/inputs\.([A-Za-z0-9_-]+)/g)].map((m) => m[1])));
    expect([...used].sort()).toEqual(Object.keys(action.inputs).sort());
  });

  it('runs the package from its own checkout: a sessionpress command that execs bin/sessionpress.mjs', () => {
    const install = runSteps.find((s) => s.run!.includes('bin/sessionpress.mjs'));
    expect(install?.run).toContain('$GITHUB_ACTION_PATH');
    expect(install?.run).toContain('$GITHUB_PATH');
    const bin = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).bin.sessionpress;
    expect(bin).toBe('bin/sessionpress.mjs');
    expect(existsSync(join(repoRoot, bin))).toBe(true);
  });

  it('comments on pull requests, and builds, audits strictly and uploads the site otherwise', () => {
    expect(calls.map((c) => c[0])).toEqual(expect.arrayContaining(['pr-comment', 'build', 'audit']));
    const comment = runSteps.find((s) => s.run!.includes('sessionpress pr-comment'))!;
    expect(comment.if).toContain("github.event_name == 'pull_request'");
    expect(comment.env?.GITHUB_TOKEN).toBeDefined();
    const audit = calls.find((c) => c[0] === 'audit')!;
    expect(audit).toContain('--strict');
    const build = calls.find((c) => c[0] === 'build')!;
    const out = (call: string[], flag: string) => call[call.indexOf(flag) + 1];
    // The audit scans the folder the build wrote, and that folder is what is uploaded.
    const buildStep = runSteps.find((s) => s.run!.includes('sessionpress build'))!;
    const auditStep = runSteps.find((s) => s.run!.includes('sessionpress audit'))!;
    expect(out(sessionpressCalls(buildStep.run!.replace(/\$OUT/g, 'OUT'))[0], '--out')).toBe('OUT');
    expect(out(sessionpressCalls(auditStep.run!.replace(/\$OUT/g, 'OUT'))[0], '--dist')).toBe('OUT');
    expect(buildStep.env?.OUT).toBe('${{ inputs.out }}');
    expect(auditStep.env?.OUT).toBe('${{ inputs.out }}');
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-pages-artifact@'))!;
    expect(upload.with?.path).toBe('${{ inputs.out }}');
    // The cache the build is told to use is the folder restored and saved.
    const cacheDir = out(build, '--cache');
    const restore = steps.find((s) => s.uses?.startsWith('actions/cache/restore@'))!;
    const save = steps.find((s) => s.uses?.startsWith('actions/cache/save@'))!;
    expect(restore.with?.path).toBe(cacheDir);
    expect(save.with?.path).toBe(cacheDir);
    expect(steps.indexOf(restore)).toBeLessThan(steps.indexOf(buildStep));
    expect(steps.indexOf(auditStep)).toBeLessThan(steps.indexOf(upload));
    expect(restore.with?.key).toContain('hashFiles(');
    // An encrypted site: the password reaches the build as a variable only, and the audit finds the plaintext in the cache.
    expect(buildStep.env?.SESSIONPRESS_PASSWORD).toBe('${{ inputs.password }}');
    expect(buildStep.run).not.toContain('PASSWORD');
    expect(out(sessionpressCalls(auditStep.run!)[0], '--cache')).toBe(cacheDir);
  });

  it.each(calls.map((c) => [c.join(' '), c] as const))('`sessionpress %s` is a command with flags it accepts', (_, call) => {
    const [name, ...args] = call;
    expect(Object.keys(COMMANDS)).toContain(name);
    // The command's own parser judges the flags: an unknown one, or a value missing, fails before --help is honoured.
    const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'sessionpress.mjs'), name, ...args, '--help'], { cwd: repoRoot, encoding: 'utf8' });
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/^usage: sessionpress /);
  });
});

/** The README's section of that title, up to the next section of its level. */
function readmeSection(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  expect(start, title).toBeGreaterThan(-1);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

function fencedBlocks(text: string, lang: string): string[] {
  return [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)\\n```', 'g'))].map((m) => m[1]);
}

interface Workflow {
  on: Record<string, unknown> | string | string[];
  permissions?: Record<string, string>;
  jobs: Record<string, { permissions?: Record<string, string>; steps: Step[] }>;
}

describe('the README workflow files for the action', () => {
  const workflows = fencedBlocks(readmeSection('GitHub Action'), 'yaml').map((y) => load(y) as Workflow);
  const events = (w: Workflow) => (typeof w.on === 'string' ? [w.on] : Array.isArray(w.on) ? w.on : Object.keys(w.on));
  const isTrue = (v: unknown, fallback: boolean) => (v === undefined ? fallback : v === true || v === 'true');

  it('are YAML workflows, one that comments on pull requests and one that publishes', () => {
    expect(workflows.length).toBeGreaterThanOrEqual(2);
    for (const w of workflows) expect(Object.keys(w.jobs).length).toBeGreaterThan(0);
    expect(workflows.some((w) => events(w).includes('pull_request'))).toBe(true);
    expect(workflows.some((w) => events(w).includes('push'))).toBe(true);
  });

  it('use this action after a checkout, with only the inputs it declares', () => {
    for (const w of workflows) {
      const uses = Object.values(w.jobs).flatMap((j) => j.steps).filter((s) => /\/sessionpress@/.test(s.uses ?? ''));
      expect(uses).toHaveLength(1);
      for (const [key] of Object.entries(uses[0].with ?? {})) expect(Object.keys(action.inputs)).toContain(key);
      const job = Object.values(w.jobs).find((j) => j.steps.includes(uses[0]))!;
      expect(job.steps.findIndex((s) => s.uses?.startsWith('actions/checkout@'))).toBeLessThan(job.steps.indexOf(uses[0]));
    }
  });

  it('grant the permissions what they enable needs, and deploy what they publish', () => {
    for (const w of workflows) {
      for (const job of Object.values(w.jobs)) {
        const step = job.steps.find((s) => /\/sessionpress@/.test(s.uses ?? ''));
        if (!step) continue;
        const perms = { ...w.permissions, ...job.permissions };
        const comments = isTrue(step.with?.comment, true) && events(w).includes('pull_request');
        const publishes = isTrue(step.with?.publish, true) && events(w).some((e) => e !== 'pull_request');
        expect(comments || publishes).toBe(true);
        if (comments) expect(perms['pull-requests']).toBe('write');
        if (publishes) {
          expect(perms.pages).toBe('write');
          expect(perms['id-token']).toBe('write');
          const deploy = Object.values(w.jobs).flatMap((j) => j.steps).find((s) => s.uses?.startsWith('actions/deploy-pages@'));
          expect(deploy).toBeDefined();
        }
      }
    }
  });
});
