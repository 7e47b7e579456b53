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
    title: z.string().default('Sessionpress'),
    pageSize: z.number().int().min(5).max(1000).default(40),
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

export type SessionpressConfig = z.infer<typeof configSchema> & { sourceDir: string; configFile?: string };

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

/**
 * Reads `sessionpress.config.json` (if present) and the environment
 * (`SESSIONPRESS_SOURCE`, `SESSIONPRESS_SITE`, `SESSIONPRESS_BASE`), validates
 * them, and throws one actionable message naming the file and every bad field.
 */
export function loadConfig(root: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): SessionpressConfig {
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
  const merged = {
    ...raw,
    ...(env.SESSIONPRESS_SOURCE ? { source: env.SESSIONPRESS_SOURCE } : {}),
    ...(env.SESSIONPRESS_SITE ? { site: env.SESSIONPRESS_SITE } : {}),
    ...(env.SESSIONPRESS_BASE ? { base: env.SESSIONPRESS_BASE } : {}),
  };
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  - ${i.path.join('.') || '(top level)'}: ${i.message}`).join('\n');
    throw new ConfigError(`Invalid Sessionpress configuration (${existsSync(file) ? file : 'environment'}):\n${problems}`);
  }
  const cfg = parsed.data;
  const sourceDir = isAbsolute(cfg.source) ? cfg.source : resolve(root, cfg.source);
  if (!existsSync(sourceDir)) {
    throw new ConfigError(`Session source folder ${sourceDir} does not exist. Set "source" in ${CONFIG_FILE} or SESSIONPRESS_SOURCE to a folder laid out like ~/.claude/projects.`);
  }
  const base = cfg.base === '/' ? '/' : `/${cfg.base.replace(/^\/+|\/+$/g, '')}`;
  return { ...cfg, base, sourceDir, configFile: existsSync(file) ? file : undefined };
}
