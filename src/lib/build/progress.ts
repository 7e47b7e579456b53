/**
 * Progress during a build, and how much the build log says. The log is read
 * in two places: a terminal, where one progress line can be redrawn in place,
 * and a file or CI, where every update is a line of its own and must be rare.
 */

/**
 * Appended to a logger's label (`logger.fork(label + PROGRESS_LABEL)`) to
 * mark its events as progress: the build log (src/integrations/quiet-log.ts)
 * draws them in place on a terminal and prints them as ordinary lines elsewhere.
 */
export const PROGRESS_LABEL = ':progress';

/** Whether progress can be one line redrawn in place: a terminal, outside CI (whose log viewers keep every redraw). */
export function isInteractive(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && !env.CI;
}

/** Whether the log shows everything: every problem, and Astro's page-by-page listing (`--verbose` or SESSIONPRESS_VERBOSE=1). */
export function isVerbose(astroLevel?: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return env.SESSIONPRESS_VERBOSE === '1' || astroLevel === 'debug';
}

/** On a terminal, a redraw at most this often (ms). */
const REDRAW_MS = 100;
/** In a file, the first progress line after this long (ms), then twice as long each time... */
const FIRST_LINE_MS = 5_000;
/** ...up to this: a long build shows it is alive in a handful of lines. */
const LONGEST_GAP_MS = 60_000;

/**
 * Says when a progress update is worth showing: on a terminal at most ten
 * times a second; in a file after 5 s, then after twice the last gap each
 * time, never more than a minute apart, so a build of any length prints a
 * handful of progress lines, not one every few seconds.
 */
export function createThrottle(interactive: boolean, now: () => number = () => performance.now()): () => boolean {
  let gap = interactive ? REDRAW_MS : FIRST_LINE_MS;
  let next = interactive ? now() : now() + gap;
  return () => {
    const t = now();
    if (t < next) return false;
    if (!interactive) gap = Math.min(gap * 2, LONGEST_GAP_MS);
    next = t + gap;
    return true;
  };
}

/** A progress reporter: `update(text)` as often as work is done; the throttle decides what reaches the log. */
export function createProgress(logger: { info(message: string): void }, interactive: boolean, now?: () => number): (text: string) => void {
  const due = createThrottle(interactive, now);
  return (text) => {
    if (due()) logger.info(text);
  };
}
