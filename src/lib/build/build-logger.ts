import type { AstroIntegrationLogger } from 'astro';

/**
 * What the steps that end a build (the search index, the output folder's
 * pruning, the encryption) log through: an integration's logger inside
 * Astro's process, or the command's own once Astro's process has ended
 * (src/integrations/finish.ts).
 */
export interface BuildLogger extends Pick<AstroIntegrationLogger, 'label' | 'info' | 'warn' | 'debug'> {
  fork(label: string): BuildLogger;
}
