/**
 * The Astro project behind `sessionpress build|dev|preview`: a thin one whose
 * root lives in the cache folder (`<cache>/app/`), so that nothing is written
 * into the installed package, which may be read-only or shared. It declares
 * the sessions collection and adds the same integration as the template and
 * any host site, as a standalone site.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroInlineConfig } from 'astro';
import { loadConfig, type SessionpressConfig, type SessionpressOptions } from '../../src/schemas/config.js';
import { DEFAULT_CACHE, DEFAULT_OUT } from './site-options.js';

/** The package's own folder (this file is scripts/lib/site-project.ts). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where sessions are read from when no SOURCE, config file or SESSIONPRESS_SOURCE names a folder. */
export const DEFAULT_SOURCE = join(homedir(), '.claude', 'projects');
/** Variables the command line reads once, here; the integration then gets the result as options. */
const CONFIG_VARIABLES = ['SESSIONPRESS_CONFIG', 'SESSIONPRESS_SOURCE', 'SESSIONPRESS_SITE', 'SESSIONPRESS_BASE', 'SESSIONPRESS_CACHE_DIR', 'SESSIONPRESS_NOTES'];

export interface SiteArgs {
  source?: string;
  out?: string;
  cache?: string;
  config?: string;
  /** `--encrypt`: as `"encrypt": true` in the config. */
  encrypt?: boolean;
}

export interface SiteProject {
  /** Astro's inline config but the integration, which `withIntegration` adds where Astro runs. */
  astro: Omit<AstroInlineConfig, 'integrations'>;
  /** The integration's options (plain data): a build in a process of its own gets them over IPC (scripts/lib/build-child.ts). */
  integration: SessionpressOptions;
  config: SessionpressConfig;
  outDir: string;
  /** The cache folder (`--cache`): what a rebuild reuses, and the project Astro builds. */
  cache: string;
  /** The folder the command was run in (the working folder is the project's root afterwards). */
  cwd: string;
}

/**
 * Reads the config once, from the current folder (`sessionpress.config.json`,
 * or `--config`, then SESSIONPRESS_* variables, then SOURCE), writes the thin
 * project into the cache folder and returns the inline Astro config that
 * builds, serves or previews it, and makes the project's root the working
 * folder. Throws a ConfigError for a bad config.
 */
export async function siteProject(args: SiteArgs, env: NodeJS.ProcessEnv = process.env, needSource = true): Promise<SiteProject> {
  const cwd = process.cwd();
  const configEnv = { ...env, ...(args.config ? { SESSIONPRESS_CONFIG: resolve(args.config) } : {}) };
  const inline = { source: args.source && resolve(args.source), ...(args.encrypt ? { encrypt: true } : {}) };
  const config = loadConfig(cwd, configEnv, { inline, defaults: { source: DEFAULT_SOURCE }, needSource });
  // Read above, relative to this folder: the integration, whose root is the cache folder, must not read them again.
  for (const name of CONFIG_VARIABLES) delete env[name];
  const cache = resolve(args.cache ?? DEFAULT_CACHE);
  const outDir = resolve(args.out ?? DEFAULT_OUT);
  const root = join(cache, 'app');
  await writeIfChanged(join(root, 'src', 'content.config.ts'), contentConfig());
  // Empty: every page is injected by the integration (an absent folder makes the preview warn).
  await mkdir(join(root, 'src', 'pages'), { recursive: true });
  await linkModules(root);
  const { sourceDir, configFile: _file, prefix, ...fields } = config;
  const integration: SessionpressOptions = { ...fields, source: sourceDir, prefix: `/${prefix}`, standalone: true };
  // Astro resolves some paths from the working folder: the server chunks it runs to render the pages go
  // below it (or into the output folder when that is inside it), and import npm packages Node must find
  // there. The project's root, with its linked node_modules, is that folder; every path above is absolute.
  process.chdir(root);
  return {
    config,
    outDir,
    cache,
    cwd,
    integration,
    astro: {
      root,
      configFile: false,
      outDir,
      cacheDir: join(cache, 'astro'),
      // The dev server serves the package's files (pages, scripts) and its dependencies from outside the root.
      vite: { server: { fs: { allow: [root, ...packageFolders()] } } },
    },
  };
}

/**
 * The inline config Astro runs with: `astro` and the integration made from
 * its options. The integration is loaded only here, in the process that runs
 * Astro: a `sessionpress build` that builds in a process of its own never
 * loads it (0.3 s of modules).
 */
export async function withIntegration(astro: SiteProject['astro'], integration: SessionpressOptions): Promise<AstroInlineConfig> {
  const { sessionpress } = await import('../../src/integrations/sessionpress.js');
  return { ...astro, integrations: [sessionpress(integration)] };
}

/** The content config of the thin project: the sessions collection, imported from the package by path. */
function contentConfig(): string {
  const content = join(PACKAGE_ROOT, 'src', 'content.ts');
  return `// Written by sessionpress: the collections of the site it builds.\nimport { sessionsCollection } from ${JSON.stringify(content)};\n\nexport const collections = { sessions: sessionsCollection() };\n`;
}

/**
 * Links `<root>/node_modules` to the folder Astro was installed in: Astro's own
 * virtual modules import `astro/…` from the project's root, and a root in the
 * cache folder has no node_modules of its own. Astro's and Vite's caches are
 * set elsewhere (the cache folder), so nothing is written through the link.
 */
async function linkModules(root: string): Promise<void> {
  const modules = dirname(dirname(createRequire(import.meta.url).resolve('astro/package.json')));
  const link = join(root, 'node_modules');
  const current = await readlink(link).catch(() => undefined);
  if (current === modules) return;
  await rm(link, { recursive: true, force: true });
  await symlink(modules, link, 'junction');
}

/** The package's folder, and the node_modules folder it was installed into (its dependencies). */
function packageFolders(): string[] {
  const parent = dirname(PACKAGE_ROOT.replace(/[\\/]$/, ''));
  return basename(parent) === 'node_modules' ? [PACKAGE_ROOT, parent] : [PACKAGE_ROOT];
}

/** Writes a file unless it already holds `text`: an unchanged content config keeps Astro's content store. */
async function writeIfChanged(file: string, text: string): Promise<void> {
  if (existsSync(file) && (await readFile(file, 'utf8')) === text) return;
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}
