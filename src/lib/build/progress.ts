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

/**
 * How far one session's processing has come, as it goes: the thread
 * processing it reports each step (see `processSession`), so that a build
 * busy with one huge session for minutes says what it is doing.
 */
export type SessionProgress =
  | { stage: 'read'; bytes: number; total: number }
  /** Looking for secrets: characters looked at, of `total` (see `RedactionProgress`). */
  | { stage: 'detect'; done: number; total: number }
  /** Replacing what was found. */
  | { stage: 'redact' }
  | { stage: 'model' }
  | { stage: 'render'; pages: number; total: number };

/** Bytes read between two reading updates a thread sends: a 630 MB session sends about eighty. */
const READ_STEP_BYTES = 8 << 20;
/** Pages rendered between two rendering updates, as a share of the session's pages: at most about a hundred updates per session. */
const RENDER_STEPS = 100;

/**
 * Thins a session's progress before it crosses threads: every change of step,
 * then reading every 8 MB, looking for secrets every percent and rendering
 * every hundredth of the pages, and the last of each. What is sent depends on
 * the work done only, never on time.
 */
export function createProgressThinner(send: (p: SessionProgress) => void): (p: SessionProgress) => void {
  let last: SessionProgress | undefined;
  return (p) => {
    const due =
      last?.stage !== p.stage ||
      (p.stage === 'read' && last.stage === 'read' && (p.bytes - last.bytes >= READ_STEP_BYTES || p.bytes >= p.total)) ||
      (p.stage === 'detect' && last.stage === 'detect' && (percent(p.done, p.total) > percent(last.done, last.total) || p.done >= p.total)) ||
      (p.stage === 'render' && last.stage === 'render' && (p.pages - last.pages >= Math.ceil(p.total / RENDER_STEPS) || p.pages >= p.total));
    if (!due) return;
    last = p;
    send(p);
  };
}

/** Sessions at least this large have their step shown in the progress line; a smaller one is done before a line would show it. */
export const SHOWN_RUNNING_MIN_BYTES = 16e6;

/** A session being processed, as the progress line may name it. */
export interface RunningSession {
  /** How the line names it (the start of its id). */
  name: string;
  /** The session file's size. */
  bytes: number;
  progress: SessionProgress;
}

/**
 * The sessions step's progress line: sessions processed so far, and where
 * the largest of those `running` stands, when it is large enough to take a
 * while (`sessions 0/1 processed; 5e55104d: 312 of 630 MB read`). Short: a
 * terminal cuts the line at its width.
 */
export function sessionsProgressText(done: number, total: number, running: readonly RunningSession[] = []): string {
  // Numbers as the rest of the build log writes them: plain.
  const head = `sessions ${done}/${total} processed`;
  const largest = running.reduce<RunningSession | undefined>((a, b) => (a && a.bytes >= b.bytes ? a : b), undefined);
  if (!largest || largest.bytes < SHOWN_RUNNING_MIN_BYTES) return head;
  return `${head}; ${largest.name}: ${stepText(largest.progress)}`;
}

/** What a session's step says in the progress line. */
function stepText(p: SessionProgress): string {
  switch (p.stage) {
    case 'read':
      return `${megabytes(p.bytes)} of ${megabytes(p.total)} MB read`;
    case 'detect':
      return `looking for secrets, ${percent(p.done, p.total)}%`;
    case 'redact':
      return 'redacting';
    case 'model':
      return 'building the conversation';
    case 'render':
      return `${p.pages} of ${p.total} pages rendered`;
  }
}

const megabytes = (bytes: number) => Math.round(bytes / 1e6);
/** Whole percent done, never 100 before the end. */
const percent = (done: number, total: number) => (done >= total ? 100 : Math.min(99, Math.floor((100 * done) / total)));
