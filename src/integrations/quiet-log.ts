import type { AstroIntegrationLogger } from 'astro';
import { createThrottle, PROGRESS_LABEL } from '../lib/build/progress.js';

/** Where Astro's logger sends its events (its own node destination, or one a site configured). */
export type LogDestination = AstroIntegrationLogger['options']['destination'];
/** One event of Astro's logger: a label, a level, a message, whether a newline ends it. */
export type LogEvent = Parameters<LogDestination['write']>[0];

export interface QuietLogOptions {
  /** Pass Astro's page-by-page listing through (`--verbose`, SESSIONPRESS_VERBOSE=1). */
  verbose: boolean;
  /** Draw progress in place on one line (a terminal outside CI); otherwise progress is a line now and then. */
  interactive: boolean;
  /** The terminal progress is drawn on. */
  terminal?: { write(text: string): unknown; columns?: number };
  now?: () => number;
}

/** Label of the lines this destination writes itself. */
const LABEL = 'sessionpress';
const ANSI = /\x1b\[[0-9;]*m/g;
const CLEAR_LINE = '\r\x1b[K';
/** Destinations already wrapped: the config hook can run more than once in one process. */
const wrapped = new WeakSet<LogDestination>();

/**
 * Makes the build log readable at any size by wrapping the destination of
 * Astro's logger (the one object every logger of the build writes through:
 * Astro's own, Vite's, each integration's and each content loader's).
 *
 * - Astro lists every page it writes (`├─ /sessions/…/index.html (+12ms)`):
 *   thousands of lines nobody reads. Unless verbose, those events are counted
 *   instead, and one line says how many pages were rendered and how many
 *   reused, just before Astro's own "Completed" line for the step.
 * - Events whose label ends in PROGRESS_LABEL are progress: on a terminal they
 *   redraw one line in place (cleared before anything else is written);
 *   elsewhere they are ordinary lines, as rare as their throttle makes them.
 *
 * Nothing else is touched: warnings and errors always pass, in order, to the
 * same streams as before, so exit codes and error output are Astro's own.
 */
export function installQuietLog(logger: AstroIntegrationLogger, options: QuietLogOptions): void {
  const current = logger.options.destination;
  if (wrapped.has(current)) return;
  const quiet = createQuietLog(current, options);
  wrapped.add(quiet);
  logger.options.destination = quiet;
}

/** The wrapping destination (see `installQuietLog`); exported for its tests. */
export function createQuietLog(inner: LogDestination, options: QuietLogOptions): LogDestination {
  const terminal = options.terminal ?? process.stdout;
  /** Paces page progress; made at the first page, so the first line comes some seconds into the step. */
  let pageProgressDue: (() => boolean) | undefined;
  let statusShown = false;
  const pages = { listed: 0, rendered: 0, reused: 0, empty: 0 };

  const clearStatus = () => {
    if (!statusShown) return;
    terminal.write(CLEAR_LINE);
    statusShown = false;
  };
  const drawStatus = (text: string) => {
    // Cut to the terminal's width: a line that wraps cannot be redrawn in place.
    // A terminal that does not say its width (0) is taken as 80 columns.
    const width = Math.max(20, (terminal.columns || 80) - 1);
    terminal.write(`${CLEAR_LINE}${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
    statusShown = true;
  };
  const forward = (event: LogEvent) => {
    clearStatus();
    inner.write(event);
  };
  const progress = (label: string, message: string) => {
    if (options.interactive) drawStatus(`[${label}] ${message.replace(ANSI, '')}`);
    else forward({ label, level: 'info', message, newLine: true });
  };

  /** Counts one of Astro's page events; false when the event is something else. */
  const countPage = (event: LogEvent): boolean => {
    if (options.verbose || event.level !== 'info') return false;
    const plain = event.message.replace(ANSI, '');
    // `  ├─ /path/index.html`, written without a newline; its outcome follows as a SKIP_FORMAT event.
    if (event.label === null && !event.newLine && /^\s*├─ /.test(plain)) {
      pages.listed++;
      pageProgressDue ??= createThrottle(options.interactive, options.now);
      if (pageProgressDue()) progress(LABEL, `pages: ${pages.listed} written`);
      return true;
    }
    if (event.label !== 'SKIP_FORMAT') return false;
    if (/^ \((?:restored|cached)\)\s*$/.test(plain)) pages.reused++;
    else if (/^ \(\+[\d.]+\s*m?s\)/.test(plain)) {
      pages.rendered++;
      if (plain.includes('file not created')) pages.empty++;
    } else return false;
    return true;
  };

  return {
    write(event) {
      if (event.label?.endsWith(PROGRESS_LABEL)) return progress(event.label.slice(0, -PROGRESS_LABEL.length), event.message);
      if (countPage(event)) return;
      // Astro closes the page step with `✓ Completed in …` (no label): the count goes just before it.
      if (pages.listed && event.label === null && event.message.replace(ANSI, '').trimStart().startsWith('✓ Completed')) {
        forward({ label: LABEL, level: 'info', message: pagesLine(pages), newLine: true });
        Object.assign(pages, { listed: 0, rendered: 0, reused: 0, empty: 0 });
        pageProgressDue = undefined;
      }
      forward(event);
    },
    flush() {
      return inner.flush?.();
    },
    close() {
      clearStatus();
      return inner.close?.();
    },
  };
}

function pagesLine(pages: { listed: number; rendered: number; reused: number; empty: number }): string {
  const empty = pages.empty ? `, ${pages.empty} with an empty response (no file written)` : '';
  return `${pages.listed} pages: ${pages.rendered} rendered, ${pages.reused} reused from the last build${empty} (SESSIONPRESS_VERBOSE=1 lists them)`;
}
