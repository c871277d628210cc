/**
 * How far V8 lets a heap grow past what its last full collection kept before it collects
 * again. By default it picks a factor between 1.1 and 4 from how fast it collects against how
 * fast the program allocates; under a fleet's ingest, and the more so on a busy machine where its
 * concurrent marking gets little CPU, it chose the top of that: the main thread's heap grew to
 * 4–5 times its live objects (about 180 MB live, 800 MB held with a 5,000-device fleet beyond
 * saturation), and the pages a heap took stay with the process after the collection — the RSS
 * that "grew" in the fleet runs was that, not objects kept (docs/performance.md). A fixed 1.5
 * keeps each heap within half again of what is live, for more frequent, mostly concurrent, full
 * collections. V8 reads the flag at each collection, so setting it once started takes effect;
 * a `--heap-growing-percent` given to node itself wins.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 50;

export function boundHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  if (execArgv.some((arg) => arg.startsWith('--heap-growing-percent') || arg.startsWith('--heap_growing_percent'))) return;
  setFlagsFromString(`--heap-growing-percent=${String(HEAP_GROWING_PERCENT)}`);
}
