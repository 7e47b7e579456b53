import { describe, expect, it } from 'vitest';
import { createQuietLog, type LogEvent } from '../../src/integrations/quiet-log.js';
import { PROGRESS_LABEL } from '../../src/lib/build/progress.js';

const green = (s: string) => `\x1b[32m${s}\x1b[39m`;
const dim = (s: string) => `\x1b[2m${s}\x1b[22m`;

/** The events Astro's page step sends (core/build/generate.js): a header, two events per page, the closing line. */
function pageStep(pages: Array<{ path: string; outcome: 'rendered' | 'restored' | 'cached' }>): LogEvent[] {
  const events: LogEvent[] = [{ label: 'SKIP_FORMAT', level: 'info', message: '\n\x1b[42m\x1b[30m generating static routes \x1b[39m\x1b[49m', newLine: true }];
  // Four pages at a time: the path of the next page can come before the outcome of the last.
  for (let i = 0; i < pages.length; i += 2) {
    const pair = pages.slice(i, i + 2);
    for (const p of pair) events.push({ label: null, level: 'info', message: `  ${green('├─')} ${dim(p.path)}`, newLine: false });
    for (const p of pair) {
      events.push({ label: 'SKIP_FORMAT', level: 'info', message: p.outcome === 'rendered' ? ` ${dim('(+12ms)')} ` : ` ${green(`(${p.outcome})`)}`, newLine: true });
    }
  }
  events.push({ label: null, level: 'info', message: green('✓ Completed in 510ms.\n'), newLine: true });
  return events;
}

function setup(options: { verbose?: boolean; interactive?: boolean } = {}) {
  const out: Array<LogEvent | string> = [];
  let t = 0;
  const log = createQuietLog(
    { write: (e) => void out.push(e) },
    { verbose: options.verbose ?? false, interactive: options.interactive ?? false, terminal: { write: (s) => out.push(s), columns: 60 }, now: () => (t += 100) },
  );
  return { log, out, events: () => out.filter((e): e is LogEvent => typeof e !== 'string') };
}

const pages = Array.from({ length: 1000 }, (_, i) => ({ path: `/sessions/p/s${i}/index.html`, outcome: i % 10 === 0 ? ('rendered' as const) : i % 2 ? ('restored' as const) : ('cached' as const) }));

describe('the quiet build log', () => {
  it('counts Astro\'s page listing instead of printing it, in one line before the step\'s own "Completed"', () => {
    const { log, events } = setup();
    for (const e of pageStep(pages)) log.write(e);
    const messages = events().map((e) => e.message.replace(/\x1b\[[0-9;]*m/g, ''));
    expect(messages.some((m) => m.includes('├─') || m.includes('(+12ms)') || m.includes('(restored)'))).toBe(false);
    const i = messages.findIndex((m) => m.startsWith('1000 pages:'));
    expect(messages[i]).toBe('1000 pages: 100 rendered, 900 reused from the last build (SESSIONPRESS_VERBOSE=1 lists them)');
    expect(messages[i + 1]).toMatch(/^✓ Completed in/);
    expect(messages[0]).toContain('generating static routes');
    // Progress now and then: the clock moves 100 ms a page, so 100 s for the step: lines at 5, 15, 35 and 75 s.
    expect(messages.filter((m) => m.startsWith('pages:'))).toEqual(['pages: 50 written', 'pages: 150 written', 'pages: 350 written', 'pages: 750 written']);
  });

  it('passes everything through when verbose', () => {
    const { log, events } = setup({ verbose: true });
    const step = pageStep(pages.slice(0, 10));
    for (const e of step) log.write(e);
    expect(events()).toEqual(step);
  });

  it('never holds back a warning or an error, and keeps the order of what it passes', () => {
    const { log, events } = setup();
    const warn: LogEvent = { label: 'build', level: 'warn', message: 'something to fix', newLine: true };
    const error: LogEvent = { label: 'build', level: 'error', message: 'Caught error rendering /sessions/p/s3/: boom', newLine: true };
    const step = pageStep(pages.slice(0, 4));
    for (const e of [...step.slice(0, 3), warn, ...step.slice(3, 6), error]) log.write(e);
    expect(events().filter((e) => e.level !== 'info')).toEqual([warn, error]);
  });

  it('draws progress in place on a terminal, and clears it before the next line', () => {
    const { log, out } = setup({ interactive: true });
    log.write({ label: `sessionpress-sessions${PROGRESS_LABEL}`, level: 'info', message: 'sessions 4/56 processed', newLine: true });
    log.write({ label: `sessionpress-sessions${PROGRESS_LABEL}`, level: 'info', message: 'sessions 9/56 processed, a long line that must be cut to fit', newLine: true });
    const done: LogEvent = { label: 'sessionpress-sessions', level: 'info', message: '56 sessions', newLine: true };
    log.write(done);
    // Cut to the terminal's width (60 columns here): a line that wraps cannot be redrawn in place.
    const long = '[sessionpress-sessions] sessions 9/56 processed, a long line that must be cut to fit';
    expect(out).toEqual(['\r\x1b[K[sessionpress-sessions] sessions 4/56 processed', `\r\x1b[K${long.slice(0, 58)}…`, '\r\x1b[K', done]);
  });

  it('prints progress as ordinary lines, under the logger\'s own label, elsewhere', () => {
    const { log, out } = setup();
    log.write({ label: `sessionpress-sessions${PROGRESS_LABEL}`, level: 'info', message: 'sessions 4/56 processed', newLine: true });
    expect(out).toEqual([{ label: 'sessionpress-sessions', level: 'info', message: 'sessions 4/56 processed', newLine: true }]);
  });
});
