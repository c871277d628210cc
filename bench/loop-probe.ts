/**
 * Preloaded into a benchmarked server (`node --import ./bench/loop-probe.ts …`, spawned with an
 * IPC channel): measures the event loop from inside the process and sends, once a second, the
 * longest stall of that second — how late a 10 ms timer fired — and the heap and RSS. A stall
 * is reported when the loop turns again, so a 50 s stall arrives as one report of 50,000 ms.
 *
 * Asked `{ probe: 'gc' }` (the server started with --expose-gc), it runs a full garbage
 * collection and answers the live heap after it (a HeapReport).
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
  process.on('message', (message: { probe?: string }) => {
    if (message.probe !== 'gc') return;
    const gc = (globalThis as { gc?: () => void }).gc;
    const t0 = performance.now();
    gc?.();
    const gcMs = performance.now() - t0;
    const memory = process.memoryUsage();
    process.send?.({
      probe: 'heap',
      at: Date.now(),
      collected: gc !== undefined,
      gcMs,
      rssMb: memory.rss / 1048576,
      heapMb: memory.heapUsed / 1048576,
      externalMb: memory.external / 1048576,
      arrayBuffersMb: memory.arrayBuffers / 1048576,
    });
  });
  // Listening for messages holds the channel open; the server must still exit when it is done.
  process.channel?.unref();
}
