import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'astro/zod';

/** Redaction settings a user can add on top of the built-in rules. */
export const redactionConfigSchema = z
  .object({
    extraPatterns: z
      .array(
        z.object({
          name: z.string().regex(/^[a-z0-9-]+$/, 'use lowercase letters, digits and dashes, e.g. "internal-host"'),
          pattern: z.string().superRefine((source, ctx) => {
            const problem = regexProblem(source);
            if (problem) ctx.addIssue({ code: 'custom', message: `is not a valid JavaScript regular expression: ${problem}` });
          }),
          flags: z.string().regex(/^[gimsuy]*$/, 'use only the flags g, i, m, s, u and y').optional(),
        }),
      )
      .default([]),
    allowlist: z.array(z.string()).default([]),
    names: z.array(z.string().min(2)).default([]),
    dropImages: z.boolean().default(false),
    dropThinking: z.boolean().default(false),
    dropToolOutput: z.boolean().default(false),
  })
  .strict();

/** `sessionpress.config.json`: every field optional; environment variables win. */
export const configSchema = z
  .object({
    $schema: z.string().optional(),
    source: z.string().min(1).default('content/sessions'),
    site: z.url({ message: 'must be an absolute URL such as "https://you.github.io"' }).optional(),
    base: z
      .string()
      .regex(/^\/([^/]+\/?)*$/, 'must start with "/", e.g. "/my-repo"')
      .default('/'),
    /** Where under the base the pages go: "/" for a site of its own, "/sessions/" beside a host site's pages. */
    prefix: z
      .string()
      .regex(/^\/?([^/]+\/?)*$/, 'must be a path such as "/sessions/", or "/" for the site root')
      .default('/'),
    title: z.string().default('Sessionpress'),
    /**
     * A git checkout of the repository the sessions worked on (the Action's checkout: "."). With it, each pull
     * request's page shows its changed files with who wrote each added line (`sessionpress blame`).
     */
    repo: z.string().min(1).optional(),
    pageSize: z.number().int().min(5).max(1000).default(40),
    /**
     * Sessions per page of a session list (the index, a project's page): the first page shows the newest, numbered
     * pages the rest, and the list's script loads the whole listing as JSON only when a reader filters, groups,
     * sorts or asks for more. 50 keeps a list page near 60 KB and 1,000 elements at any archive size.
     */
    indexPageSize: z.number().int().min(2).max(1000).default(50),
    /**
     * Publish the site encrypted (issue 29): every file sealed with a key derived from the password in
     * SESSIONPRESS_PASSWORD, opened in the browser after a password or a `#k=` link (see the README, "A private
     * archive"). Needs a site of its own (the command line, the template), not a host site.
     */
    encrypt: z.boolean().default(false),
    redaction: redactionConfigSchema.default(redactionConfigSchema.parse({})),
    search: z
      .object({
        indexToolOutput: z.boolean().default(true),
        indexThinking: z.boolean().default(false),
        /**
         * Searchable HTML per index shard: a large site is indexed, cached and rebuilt in shards of about this size.
         * 10 MB: one changed session re-indexes about 1.5 s of pages instead of 4.5 s at 32 MB, for about
         * 40 KB and a few dozen small requests more on a reader's first search (measured on the bench corpus).
         */
        shardSizeMB: z.number().min(0.01, 'must be at least 0.01 (MB)').max(10_000).default(10),
      })
      .strict()
      .default({ indexToolOutput: true, indexThinking: false, shardSizeMB: 10 }),
  })
  .strict();

/**
 * What `sessionpress()` takes in astro.config.mjs: the fields of
 * `sessionpress.config.json` (validated by the same schema), plus what only a
 * site's own config can say.
 */
export const integrationOptionsSchema = configSchema
  .extend({
    /** A folder of Markdown and MDX notes to publish under `<prefix>notes/` (none by default). */
    notes: z.string().min(1).optional(),
    /**
     * The project is a Sessionpress site of its own (the template, the command line): the integration
     * owns the output folder (kept between builds, pruned to what the build produced) and sets the
     * site-wide settings the pages expect. Off in a host site, which owns its folder and settings.
     */
    standalone: z.boolean().default(false),
  })
  .strict();

/** The options of `sessionpress()`, as written in astro.config.mjs. */
export type SessionpressOptions = z.input<typeof integrationOptionsSchema>;

/**
 * The validated settings: the config file's fields, with `sourceDir` (absolute), `base` without a
 * trailing slash (`/` or `/repo`) and `prefix` as `''` or `'sessions/'`, ready to join.
 */
export type SessionpressConfig = z.infer<typeof configSchema> & { sourceDir: string; configFile?: string };

/** What pages, components and the content config read from `virtual:sessionpress/config`. */
export type SiteConfig = SessionpressConfig & {
  /** Astro's cache folder (absolute): the render cache lives in it. */
  cacheDir: string;
  /** The notes folder (absolute) when the site publishes notes. */
  notesDir?: string;
};

/** Where the options came from, for error messages. */
const OPTIONS_ORIGIN = 'the sessionpress() options in the Astro config';

/** What is wrong with a regular expression, in the engine's words without the pattern repeated; undefined when it is valid. */
function regexProblem(source: string): string | undefined {
  try {
    new RegExp(source);
    return undefined;
  } catch (err) {
    const message = (err as Error).message;
    // "Invalid regular expression: /([a-z]+/: Unterminated group" → "Unterminated group"
    return message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '') || message;
  }
}

/**
 * A configuration the user must fix: the message names the file and every bad
 * field, and is meant to be shown as it is, without a stack trace.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const CONFIG_FILE = 'sessionpress.config.json';

/** What `loadConfig` merges under and over the file. */
export interface ConfigLayers {
  /** Options given in code: the integration's, or the command line's; they win over the file. */
  inline?: Record<string, unknown>;
  /** Values the file and everything else override. */
  defaults?: Record<string, unknown>;
  /** Whether the source folder must exist (not for a preview of a built site). */
  needSource?: boolean;
}

/**
 * Reads `sessionpress.config.json` (if present), the options given in code
 * (`inline`: the integration's, or the command line's), and the environment
 * (`SESSIONPRESS_SOURCE`, `SESSIONPRESS_SITE`, `SESSIONPRESS_BASE`, `SESSIONPRESS_REPO`), later ones
 * winning field by field over `defaults` (a host site's own `site` and `base`,
 * the command line's default source); validates them and throws one actionable message
 * naming the file (or the options) and every bad field.
 */
export function loadConfig(root: string = process.cwd(), env: NodeJS.ProcessEnv = process.env, layers: ConfigLayers = {}): SessionpressConfig {
  const { inline = {}, defaults = {}, needSource = true } = layers;
  const file = resolve(root, env.SESSIONPRESS_CONFIG ?? CONFIG_FILE);
  let raw: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new ConfigError(`${file}: not valid JSON (${(err as Error).message}). Fix the file or delete it to use the defaults.`);
    }
  } else if (env.SESSIONPRESS_CONFIG) {
    throw new ConfigError(`SESSIONPRESS_CONFIG points to ${file}, which does not exist.`);
  }
  const given = Object.fromEntries(Object.entries(inline).filter(([, v]) => v !== undefined));
  const merged = {
    ...Object.fromEntries(Object.entries(defaults).filter(([, v]) => v !== undefined)),
    ...raw,
    ...given,
    ...(env.SESSIONPRESS_SOURCE ? { source: env.SESSIONPRESS_SOURCE } : {}),
    ...(env.SESSIONPRESS_SITE ? { site: env.SESSIONPRESS_SITE } : {}),
    ...(env.SESSIONPRESS_BASE ? { base: env.SESSIONPRESS_BASE } : {}),
    ...(env.SESSIONPRESS_REPO ? { repo: env.SESSIONPRESS_REPO } : {}),
  };
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    const origin = [existsSync(file) && file, Object.keys(given).length > 0 && OPTIONS_ORIGIN].filter(Boolean).join(', ') || 'environment';
    throw new ConfigError(`Invalid Sessionpress configuration (${origin}):\n${problemList(parsed.error.issues)}`);
  }
  const cfg = parsed.data;
  const sourceDir = isAbsolute(cfg.source) ? cfg.source : resolve(root, cfg.source);
  if (needSource && !existsSync(sourceDir)) {
    throw new ConfigError(`Session source folder ${sourceDir} does not exist. Set "source" in ${CONFIG_FILE} or SESSIONPRESS_SOURCE to a folder laid out like ~/.claude/projects.`);
  }
  const base = cfg.base === '/' ? '/' : `/${cfg.base.replace(/^\/+|\/+$/g, '')}`;
  const prefix = cfg.prefix.replace(/^\/+|\/+$/g, '');
  // `repo` is a folder like `source`: relative to the config's folder, absolute from here on.
  const repo = cfg.repo === undefined ? undefined : isAbsolute(cfg.repo) ? cfg.repo : resolve(root, cfg.repo);
  return { ...cfg, base, prefix: prefix ? `${prefix}/` : '', sourceDir, ...(repo ? { repo } : {}), configFile: existsSync(file) ? file : undefined };
}

/**
 * The integration's options, checked alone first so that a bad one is named
 * as an option (a typo in a field name included), not blamed on a file.
 */
export function checkIntegrationOptions(options: unknown): z.infer<typeof integrationOptionsSchema> {
  const parsed = integrationOptionsSchema.safeParse(options ?? {});
  if (!parsed.success) throw new ConfigError(`Invalid Sessionpress configuration (${OPTIONS_ORIGIN}):\n${problemList(parsed.error.issues)}`);
  return parsed.data;
}

/** One line per problem: the field's path and what is wrong with it. */
function problemList(issues: Array<{ path: PropertyKey[]; message: string }>): string {
  return issues.map((i) => `  - ${i.path.map(String).join('.') || '(top level)'}: ${i.message}`).join('\n');
}
