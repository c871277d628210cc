/**
 * Preloaded into a benchmarked server (`node --import ./bench/loop-probe.ts …`, spawned with an
 * IPC channel): measures the event loop from inside the process and sends, once a second, the
 * longest stall of that second — how late a 10 ms timer fired — and its memory. A stall is
 * reported when the loop turns again, so a 50 s stall arrives as one report of 50,000 ms.
 *
 * Memory: the heap in use at the report holds garbage not collected yet, so it says little of
 * growth; the live heap is what a full (mark-sweep) collection left, read from V8's GC profiler
 * for each full collection V8 made of its own accord in the second (none in most seconds). With
 * `--expose-gc`, a `{ probe: 'gc' }` message forces one (a stall of its own: the benchmark asks
 * at the edges of its phases, not during them) and is answered with the live heap after it (a
 * HeapReport, with the worker threads' after theirs).
 *
 * Worker threads inherit the preload: there it sends its thread's heap to the main thread's
 * probe once a second (a BroadcastChannel), which reports them with its own; a forced
 * collection is forced in them too.
 */
import { BroadcastChannel, isMainThread, threadId } from 'node:worker_threads';
import { GCProfiler, getHeapStatistics } from 'node:v8';

const TICK_MS = 10;
const MB = 1048576;
const CHANNEL = 'sluice-bench-loop-probe';

/** A worker thread's heap, as its probe sends it. */
export interface ThreadHeap {
  threadId: number;
  /** V8's heap in use, and what it holds of memory (pages committed). */
  usedMb: number;
  physicalMb: number;
  /** The heap the last full collection left. */
  liveMb: number | undefined;
  externalMb: number;
}

/** Collections since the last call: what each full one left of the heap (MB), and what they all cost. */
function collections(): () => { live: number[]; scavenges: number; fulls: number; gcMs: number } {
  let profiler = new GCProfiler();
  profiler.start();
  return () => {
    const { statistics } = profiler.stop();
    profiler = new GCProfiler();
    profiler.start();
    const fulls = statistics.filter((s) => s.gcType === 'MarkSweepCompact');
    return {
      live: fulls.map((s) => s.afterGC.heapStatistics.usedHeapSize / MB),
      scavenges: statistics.filter((s) => s.gcType === 'Scavenge').length,
      fulls: fulls.length,
      // The cost V8 reports, in microseconds (the pauses of the thread, not the concurrent work).
      gcMs: statistics.reduce((a, s) => a + s.cost, 0) / 1000,
    };
  };
}

const { gc } = globalThis as { gc?: () => void };

if (isMainThread && process.send) {
  let last = performance.now();
  let worst = 0;
  setInterval(() => {
    const now = performance.now();
    const late = now - last - TICK_MS;
    if (late > worst) worst = late;
    last = now;
  }, TICK_MS).unref();

  const gcs = collections();
  const threads = new Map<number, ThreadHeap & { seen: number }>();
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event) => {
    const heap = event.data as ThreadHeap | { gc: true };
    if ('threadId' in heap)
      threads.set(heap.threadId, { ...heap, liveMb: heap.liveMb ?? threads.get(heap.threadId)?.liveMb, seen: Date.now() });
  };
  channel.unref();
  const report = () => {
    const memory = process.memoryUsage();
    const heap = getHeapStatistics();
    const collected = gcs();
    process.send?.({
      probe: 'loop',
      at: Date.now(),
      stallMs: Math.max(0, worst),
      rssMb: memory.rss / MB,
      heapMb: memory.heapUsed / MB,
      physicalHeapMb: heap.total_physical_size / MB,
      externalMb: memory.external / MB,
      arrayBuffersMb: memory.arrayBuffers / MB,
      liveHeapMb: collected.live.at(-1),
      scavenges: collected.scavenges,
      fullGcs: collected.fulls,
      gcPauseMs: collected.gcMs,
      // Threads that stopped reporting have ended.
      threads: [...threads.values()].filter((t) => t.seen > Date.now() - 3000),
    });
  };
  setInterval(() => {
    report();
    worst = 0;
  }, 1000).unref();

  process.on('message', (message: unknown) => {
    if ((message as { probe?: unknown } | null)?.probe !== 'gc') return;
    const t0 = performance.now();
    gc?.();
    const memory = process.memoryUsage();
    // The stall it caused is the benchmark's, not the server's: not counted as one.
    last = performance.now();
    const gcMs = last - t0;
    if (gc) channel.postMessage({ gc: true });
    // The threads' next reports carry what their collection left.
    setTimeout(
      () => {
        process.send?.({
          probe: 'heap',
          at: Date.now(),
          collected: gc !== undefined,
          gcMs,
          rssMb: memory.rss / MB,
          heapMb: memory.heapUsed / MB,
          externalMb: memory.external / MB,
          arrayBuffersMb: memory.arrayBuffers / MB,
          threads: [...threads.values()].filter((t) => t.seen > Date.now() - 3000),
        });
      },
      gc && threads.size > 0 ? 1500 : 0,
    );
  });
  // After the listener, which would hold the process open.
  process.channel?.unref();
} else if (!isMainThread) {
  const gcs = collections();
  const channel = new BroadcastChannel(CHANNEL);
  let forced: number | undefined;
  channel.onmessage = (event) => {
    if (!('gc' in (event.data as object)) || !gc) return;
    gc();
    forced = getHeapStatistics().used_heap_size / MB;
  };
  channel.unref();
  setInterval(() => {
    const heap = getHeapStatistics();
    const live = gcs().live.at(-1);
    channel.postMessage({
      threadId,
      usedMb: heap.used_heap_size / MB,
      physicalMb: heap.total_physical_size / MB,
      liveMb: forced ?? live,
      externalMb: heap.external_memory / MB,
    } satisfies ThreadHeap);
    forced = undefined;
  }, 1000).unref();
}
