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
  if (!Number.isInteger(percent) || percent < 1) throw new RangeError(`heap growing percent must be a whole number from 1, not ${percent}`);
  if (FLAG.test((options.execArgv ?? process.execArgv).join(' ')) || FLAG.test(options.nodeOptions ?? process.env.NODE_OPTIONS ?? '')) return undefined;
  let set = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  const guard: HeapGrowthGuard = {
    check() {
      if (!set && rss() > above) {
        setFlag(`--heap-growing-percent=${percent}`);
        set = true;
        guard.stop();
      }
      return set;
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
  const slot = globalThis as unknown as Record<symbol, HeapGrowthGuard | null | undefined>;
  if (slot[GUARD] === undefined) {
    const guard = createHeapGrowthGuard();
    guard?.watch();
    slot[GUARD] = guard ?? null;
  }
  return slot[GUARD] !== null;
}

/** V8's collector, exposed once: `--expose-gc` set at run time gives the function to contexts made after it (none of the host's). */
let collector: (() => void) | undefined;

/**
 * Runs a full collection of this thread's heap now. For the moment a build
 * hands its work to another process and waits (the search index, built by
 * pagefind's own process): the garbage the pages phase left behind would
 * otherwise stay until the heap next grows, which it no longer does, and sit
 * beside pagefind's memory. On the bench corpus Astro's heap held 280 MB
 * there, 93 MB of it alive. Returns the bytes the heap used before and after.
 */
export function collectGarbage(): { before: number; after: number } {
  const before = process.memoryUsage().heapUsed;
  if (!collector) {
    setFlagsFromString('--expose-gc');
    collector = runInNewContext('gc') as () => void;
  }
  collector();
  return { before, after: process.memoryUsage().heapUsed };
}
