import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * How far past what the last full collection found alive the JavaScript heap
 * may grow before V8 collects again, in percent (V8's `--heap-growing-percent`),
 * once a build is large.
 *
 * Left to itself V8 picks the factor from how fast it collects against how
 * fast the program allocates, up to 4× the live set on a machine with memory
 * to spare. A build allocates fast (every page's HTML is built as strings)
 * and collects fast, so it gets the most: on 16× the bench corpus Astro's
 * process reached 2.7 GB while what it kept alive stayed under 1 GB; at 1.5×
 * a one-session rebuild of it peaked at 1.5 GB instead of 2.4 GB, in the same
 * time. Unlike a heap ceiling (`--max-old-space-size`) this never fails a
 * build whose live set is larger than expected: the heap still grows with
 * what is alive, only not with garbage.
 */
export const BUILD_HEAP_GROWING_PERCENT = 50;

/**
 * The process's resident memory past which the bound is set. Below it V8 is
 * left alone: bounded from the start, the bench corpus's cold build took
 * 98 s against about 83 s unbounded the same hour (one run, another command
 * overlapping its first seconds), a small heap collected more often for
 * memory it did not need to save (its largest process stays near 0.85 GB).
 */
export const BOUND_ABOVE_BYTES = 1024 * 1024 * 1024;

/**
 * Sessions at least this large bound the heap's growth to
 * {@link LARGE_SESSION_HEAP_GROWING_PERCENT} before they are processed
 * ({@link boundHeapForSession}). Such a session's thread holds much alive for
 * its whole time (the 630 MB bench session about 500 MB once read), and left
 * to V8 its heap grew to three or four times that: processed alone on one
 * thread it peaked at 2.04 GB, and in a build, whose guard sets its bound only
 * once the process is past {@link BOUND_ABOVE_BYTES} (by then V8 had set the
 * thread's next collection far off), the loader's process still peaked at
 * 1.86 GB. A session of 128 MB peaked at 0.58 GB unbounded, well inside a
 * build's ceiling, and was about 6 % slower bounded (12.8 against 13.5 s, one
 * thread, one run each): below this size the bound costs time for memory no
 * build is short of.
 */
export const LARGE_SESSION_BYTES = 200e6;

/**
 * The heap growth factor for a large session, in percent: its live set is
 * large, so a collection comes after a few tens of MB even at this factor,
 * and each finds mostly garbage. Processed alone on one thread, the 630 MB
 * session peaked at 0.87 GB at 15 % and at 1.07 GB at 50 %, against 2.04 GB
 * unbounded, taking 65.0, 64.7 and 63.0 s (one run each). In a build, bounded
 * before the session started, its loader phase peaked at 1.40 GB instead of
 * 1.86 GB.
 */
export const LARGE_SESSION_HEAP_GROWING_PERCENT = 15;

/** How often the guard looks at the process's memory. */
const CHECK_EVERY_MS = 500;

/** The V8 flag, on Node's command line or in NODE_OPTIONS, that says the user chose the factor. */
const FLAG = /(?:^|\s)--heap[-_]growing[-_]percent(?:=|\s|$)/;

/** One guard per process, whichever module instance starts it (Astro may load the integration more than once). */
const GUARD = Symbol.for('sessionpress.heap-growth-guard');

export interface HeapGrowthOptions {
  percent?: number;
  above?: number;
  /** The process's resident memory in bytes (all its threads): `process.memoryUsage.rss` unless a test says otherwise. */
  rss?: () => number;
  execArgv?: readonly string[];
  nodeOptions?: string;
  /** Sets the V8 flag: `v8.setFlagsFromString` unless a test says otherwise. */
  setFlag?: (flag: string) => void;
}

export interface HeapGrowthGuard {
  /** Sets the bound if the process is now past `above`; whether it is set (now or before). */
  check(): boolean;
  /**
   * Sets the bound now, whatever the process holds (and stops watching):
   * `percent`, the guard's own by default. A bound never loosens: a looser
   * percent than the one set leaves it as it is.
   */
  bound(percent?: number): void;
  /** Checks now and then every half second until the bound is set; the timer never keeps the process alive. */
  watch(): void;
  /** Stops watching (the bound, once set, stays). */
  stop(): void;
}

/**
 * Bounds V8's heap growth (`percent` past the live set) once the process's
 * resident memory passes `above`, for the rest of the process: its worker
 * threads share V8's flags, and V8 reads the factor each time it sets the
 * next collection's threshold, so it takes effect from the next full
 * collection. Nothing is done when the user set the flag, on Node's command
 * line (`execArgv`) or in `NODE_OPTIONS`: then there is no guard.
 */
export function createHeapGrowthGuard(options: HeapGrowthOptions = {}): HeapGrowthGuard | undefined {
  const { percent = BUILD_HEAP_GROWING_PERCENT, above = BOUND_ABOVE_BYTES, rss = () => process.memoryUsage.rss() } = options;
  const setFlag = options.setFlag ?? setFlagsFromString;
  checkPercent(percent);
  if (FLAG.test((options.execArgv ?? process.execArgv).join(' ')) || FLAG.test(options.nodeOptions ?? process.env.NODE_OPTIONS ?? '')) return undefined;
  // The percent set, once set: V8 has one value of the flag for the process.
  let set: number | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  const guard: HeapGrowthGuard = {
    check() {
      if (set === undefined && rss() > above) guard.bound();
      return set !== undefined;
    },
    bound(wanted = percent) {
      checkPercent(wanted);
      if (set === undefined || wanted < set) {
        setFlag(`--heap-growing-percent=${wanted}`);
        set = wanted;
      }
      guard.stop();
    },
    watch() {
      guard.stop();
      if (!guard.check()) timer = setInterval(guard.check, CHECK_EVERY_MS).unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
  return guard;
}

/**
 * Starts the one guard of this process (see `createHeapGrowthGuard`); a
 * second call finds it running. Whether a guard runs (none when the user set
 * the flag).
 */
export function watchHeapGrowth(): boolean {
  const guard = processGuard();
  guard?.watch();
  return guard !== undefined;
}

/**
 * Before a session of `bytes` is processed: bounds the heap's growth of the
 * whole process (its worker threads share V8's flags) to
 * {@link LARGE_SESSION_HEAP_GROWING_PERCENT} if the session is at least
 * {@link LARGE_SESSION_BYTES}, at once, before the session's thread has made
 * its heap large. Whether the session is that large. Nothing is set when the
 * user chose the factor (see `createHeapGrowthGuard`).
 */
export function boundHeapForSession(bytes: number, bound: (percent: number) => void = (percent) => processGuard()?.bound(percent)): boolean {
  if (bytes < LARGE_SESSION_BYTES) return false;
  bound(LARGE_SESSION_HEAP_GROWING_PERCENT);
  return true;
}

function checkPercent(percent: number): void {
  if (!Number.isInteger(percent) || percent < 1) throw new RangeError(`heap growing percent must be a whole number from 1, not ${percent}`);
}

/** The one guard of this process, made on first use; undefined when the user set the flag. */
function processGuard(): HeapGrowthGuard | undefined {
  const slot = globalThis as unknown as Record<symbol, HeapGrowthGuard | null | undefined>;
  if (slot[GUARD] === undefined) slot[GUARD] = createHeapGrowthGuard() ?? null;
  return slot[GUARD] ?? undefined;
}

/** V8's collector, as `--expose-gc` gives it (the options of `gc()` in V8's own tests). */
type Collector = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
/** Exposed once: `--expose-gc` set at run time gives the function to contexts made after it (none of the host's). */
let collector: Collector | undefined;

/**
 * At most this many compacting collections: each moves the survivors out of a
 * bounded number of fragmented pages and gives those pages back, so a heap
 * whose few survivors are spread over many pages shrinks over several rounds.
 */
const COMPACTING_ROUNDS = 4;
/** A round that gives back less of the committed heap than this is the last. */
const ROUND_MIN_RELEASE = 16 * 1024 * 1024;

/** What {@link collectGarbage} did: the heap's bytes in use and held from the system, before and after, and the process's. */
export interface CollectedHeap {
  before: number;
  after: number;
  committedBefore: number;
  committedAfter: number;
  rssBefore: number;
  rssAfter: number;
  rounds: number;
  ms: number;
}

/**
 * Collects this thread's heap now, and gives the pages it emptied back to the
 * system. For the moment a build hands its work to another process and waits
 * (the search index, built by pagefind's own process): the garbage the pages
 * phase left behind would otherwise stay until the heap next grows, which it
 * no longer does, and sit beside pagefind's memory.
 *
 * A plain full collection frees the garbage but keeps the pages: the
 * survivors (the content store, the route list) are spread over most of
 * them, and V8 gives a page back only once it is empty. So this runs V8's
 * last-resort collection, which compacts, round after round while a round
 * still gives back at least 16 MB (at most four). On the bench corpus, at
 * that point, a plain collection left Astro's heap holding 276 of its 396 MB
 * and the process 910 MB; two rounds left 99 MB and the process 594 MB, in
 * half a second. At 16x that corpus: 589 MB to 332 MB, the process 1,279 MB
 * to 967 MB, in a second. The process has nothing else to do meanwhile.
 */
export function collectGarbage(): CollectedHeap {
  const started = performance.now();
  const start = process.memoryUsage();
  const collect = (collector ??= exposeCollector());
  let rounds = 0;
  for (let committed = start.heapTotal; rounds < COMPACTING_ROUNDS; ) {
    collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    rounds++;
    const now = process.memoryUsage().heapTotal;
    if (committed - now < ROUND_MIN_RELEASE) break;
    committed = now;
  }
  const end = process.memoryUsage();
  return {
    before: start.heapUsed,
    after: end.heapUsed,
    committedBefore: start.heapTotal,
    committedAfter: end.heapTotal,
    rssBefore: start.rss,
    rssAfter: end.rss,
    rounds,
    ms: performance.now() - started,
  };
}

/**
 * The process's resident memory past which a build settles its heap before
 * Astro bundles the pages ({@link settleHeapAbove}). Syncing the content
 * leaves its garbage on Astro's heap (the data store read, every session
 * checked, the store written), and the bound on the heap's growth may not be
 * set yet; bundling then reads the whole store again, and the pages are built.
 * At 16x the bench corpus a one-session rebuild came there holding 690 to 950 MB
 * (of it up to 640 MB of heap in use, 97 MB alive), and Astro's process then
 * peaked at 1.20 to 1.46 GB; settled there, at 1.02 to 1.05 GB, the rebuild
 * taking about a second longer (of 37 to 44 s). On the bench corpus it comes
 * there holding 420 to 460 MB, where a collection gave back 60 to 80 MB for
 * 0.2 s of a 6 s rebuild: not worth it.
 */
export const SETTLE_BEFORE_BUNDLING_ABOVE = 600e6;

export interface SettleOptions {
  /** The process's resident memory in bytes: `process.memoryUsage.rss` unless a test says otherwise. */
  rss?: () => number;
  /** Bounds the heap's growth from now on: this process's guard unless a test says otherwise (nothing when the user set the factor). */
  bound?: () => void;
  /** `collectGarbage` unless a test says otherwise. */
  collect?: () => CollectedHeap;
}

/**
 * In a process holding more than `above` bytes: bounds the heap's growth from
 * now on (as the guard of {@link watchHeapGrowth} does once a build is large)
 * and collects the heap, which applies the bound at once, to what is alive
 * now. A bound set without a collection waits for V8's next full collection,
 * whose threshold was set by the last one: a heap collected by V8 just before
 * still grew to three times what was alive. Returns what the collection did,
 * or undefined for a smaller process, which is left alone.
 */
export function settleHeapAbove(above: number, options: SettleOptions = {}): CollectedHeap | undefined {
  const { rss = () => process.memoryUsage.rss(), bound = () => processGuard()?.bound(), collect = collectGarbage } = options;
  if (rss() <= above) return undefined;
  bound();
  return collect();
}

/** One line of what a collection did, for the debug log. */
export function describeCollection(heap: CollectedHeap): string {
  const mb = (n: number) => (n / 1e6).toFixed(0);
  return `${mb(heap.before)} MB used, ${mb(heap.after)} MB alive; ${mb(heap.committedBefore)} → ${mb(heap.committedAfter)} MB held after ${heap.rounds} round(s) in ${heap.ms.toFixed(0)} ms; process ${mb(heap.rssBefore)} → ${mb(heap.rssAfter)} MB`;
}

function exposeCollector(): Collector {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as Collector;
}
