import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/shared.js';

/**
 * bin/register-typescript.mjs: how the commands' TypeScript loads, in the
 * repository and installed under node_modules (where Node's own type
 * stripping refuses to work). Each case runs a fresh Node with the hooks, as
 * `npx sessionpress` and `npm run build` do.
 */
const hooks = pathToFileURL(join(repoRoot, 'bin/register-typescript.mjs')).href;
const work = mkdtempSync(join(tmpdir(), 'sp-register-ts-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Writes files below `dir` and runs `main` there with the hooks. */
function runWith(dir: string, files: Record<string, string>, main: string) {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  const run = spawnSync(process.execPath, ['--import', hooks, join(dir, main)], { cwd: dir, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const MODULES = {
  'package.json': '{ "type": "module" }',
  'lib/sum.ts': 'export interface Pair { a: number; b: number }\nexport const sum = ({ a, b }: Pair): number => a + b;\n',
  'main.ts': "import { sum, type Pair } from './lib/sum.js';\nimport type { Pair as Same } from './lib/sum.js';\nconst pair: Pair & Same = { a: 40, b: 2 };\nconsole.log(`sum ${sum(pair)}`);\n",
};

describe('register-typescript', () => {
  it('loads TypeScript that imports `.js` names of `.ts` files, and prints nothing else', () => {
    const run = runWith(join(work, 'plain'), MODULES, 'main.ts');
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('sum 42\n');
    expect(run.code).toBe(0);
  });

  it('loads it under node_modules too (where an installed sessionpress lives), with no experimental warning', () => {
    const run = runWith(join(work, 'app', 'node_modules', 'pkg'), MODULES, 'main.ts');
    expect(run.stderr).not.toMatch(/warning|experimental|node_modules/i);
    expect(run.stdout).toBe('sum 42\n');
    expect(run.code).toBe(0);
  });

  it('imports a `.js` file that exists as that file, not as a `.ts` of the same name', () => {
    const run = runWith(join(work, 'both'), {
      'package.json': '{ "type": "module" }',
      'value.js': "export const from = 'js';\n",
      'value.ts': "export const from: string = 'ts';\n",
      'main.ts': "import { from } from './value.js';\nconsole.log(from);\n",
    }, 'main.ts');
    expect(run.stdout).toBe('js\n');
  });

  it('keeps line and column numbers: an error thrown in TypeScript points at its place in the file', () => {
    const run = runWith(join(work, 'app', 'node_modules', 'throws'), {
      'package.json': '{ "type": "module" }',
      'main.ts': "interface Unused {\n  a: string;\n}\nconst n: number = 1;\nif (n) throw new Error('here');\n",
    }, 'main.ts');
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('main.ts:5:14');
  });

  it('other warnings still reach the user', () => {
    const run = runWith(join(work, 'app', 'node_modules', 'warns'), {
      'package.json': '{ "type": "module" }',
      'main.ts': "const kind: string = 'SomeWarning';\nprocess.emitWarning('kept', kind);\n",
    }, 'main.ts');
    expect(run.stderr).toContain('SomeWarning: kept');
  });
});
