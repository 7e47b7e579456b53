/**
 * The last steps of a build as plain data: what the search index, the output
 * folder's pruning and the encryption need, so that the command that started
 * the build can run them once Astro's process has ended
 * (src/integrations/finish.ts). The integrations fill a {@link DeferredFinish}
 * in their `astro:build:done` hooks instead of running the steps.
 */

/** What the search index is built from (src/integrations/pagefind.ts). */
export interface SearchIndexJob {
  /** Our pages' folder: the output folder, below the prefix. */
  outDir: string;
  /** The HTML files of our routes this build produced (rendered or reused). */
  html: string[];
  /** Where built shards are kept between builds. */
  cacheDir: string;
  /** About this much searchable HTML goes into one shard. */
  shardBytes: number;
}

/** What the output folder's pruning needs (src/integrations/out-dir.ts). */
export interface OutDirJob {
  /** The folder Astro wrote (the output folder, or the plaintext one of an encrypted site). */
  root: string;
  /** Where the folder this cache last built is recorded. */
  stateFile: string;
  /** The output folder as configured: what the record says. */
  outDir: string;
}

/** What sealing the site needs (src/integrations/encrypt.ts); the password is read from the environment when it runs, never handed over. */
export interface EncryptJob {
  /** The folder the encrypted site is published into (the build's own output folder is the plaintext one in the cache). */
  outDir: string;
  /** The cache folder (absolute). */
  cacheDir: string;
  /** `site` and `base` of the config: the password's salt (src/lib/encrypt/crypto.ts, `siteSalt`). */
  site: string | undefined;
  base: string;
  /** The plaintext site Astro built. */
  plainDir: string;
}

/**
 * The steps a build hands over instead of running them, in the order their
 * hooks run: the search index, then the pruning, then the encryption.
 *
 * Why: while they run, Astro's process holds everything the build used (its
 * heap, and what Vite's bundler freed but its allocator keeps) beside
 * pagefind's process; on 16x the bench corpus that was 1.0 GB beside
 * pagefind's 1.2 GB, the whole build's peak. Run by the command after Astro's
 * process has ended, they cost only pagefind's memory and their own.
 */
export interface DeferredFinish {
  search?: SearchIndexJob;
  outDir?: OutDirJob;
  encrypt?: EncryptJob;
}
