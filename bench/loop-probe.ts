/**
 * Preloaded into a benchmarked server (`node --import ./bench/loop-probe.ts …`, spawned with an
 * IPC channel): measures the event loop from inside the process and sends, once a second, the
 * longest stall of that second — how late a 10 ms timer fired — and the heap and RSS. A stall
 * is reported when the loop turns again, so a 50 s stall arrives as one report of 50,000 ms.
 */
const TICK_MS = 10;

if (process.send) {
  process.channel?.unref();
  let last = performance.now();
  let worst = 0;
  setInterval(() => {
    const now = performance.now();
    const late = now - last - TICK_MS;
    if (late > worst) worst = late;
    last = now;
  }, TICK_MS).unref();
  setInterval(() => {
    const memory = process.memoryUsage();
    process.send?.({
      probe: 'loop',
      at: Date.now(),
      stallMs: Math.max(0, worst),
      rssMb: memory.rss / 1048576,
      heapMb: memory.heapUsed / 1048576,
      externalMb: memory.external / 1048576,
    });
    worst = 0;
  }, 1000).unref();
}
