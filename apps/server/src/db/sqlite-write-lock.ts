/**
 * SQLite allows one writer at a time, and node:sqlite is synchronous: a write on the main thread
 * that finds the write lock taken sleeps in SQLite's busy handler, and with it the thread serving
 * HTTP, MQTT and the timers (for as long as the ingest writer's thread holds the lock, plus the
 * busy handler's sleeps of up to 100 ms). So the threads of this process that write one database
 * file take turns through a lock of their own in shared memory, and the main thread waits for
 * its turn asynchronously (Atomics.waitAsync): it runs a write only when no other thread is in a
 * transaction, and never blocks inside SQLite for it.
 *
 * The main thread's queued writes go one at a time, each in its own turn of the event loop.
 *
 * Turns: the ingest writer's thread lets queued main-thread writes go first (they are short and
 * people wait for them), but for at most THREAD_DEFER_MS; the main thread keeps the lock for
 * its queued writes one after the other, and hands it over when the writer's thread has waited
 * and the main thread's turn has lasted MAIN_TURN_MS.
 */
import path from 'node:path';

const OWNER = 0;
const MAIN_WAITING = 1;
const THREAD_WAITING = 2;
const FREE = 0;
const MAIN = 1;
const THREAD = 2;

/** How long the writer's thread lets waiting main-thread writes go first. */
const THREAD_DEFER_MS = 100;
/** How long the main thread keeps the lock for its queued writes while the writer's thread waits. */
const MAIN_TURN_MS = 50;

// ES2024's Atomics.waitAsync (Node has it; the project's TypeScript lib predates it).
const { waitAsync } = Atomics as unknown as {
  waitAsync: (
    array: Int32Array,
    index: number,
    value: number,
    timeoutMs: number,
  ) => { async: false; value: string } | { async: true; value: Promise<string> };
};

const locks = new Map<string, Int32Array>();

/** The lock of one database file, shared with the threads that write it (pass it in workerData). */
export function writeLockOf(file: string): Int32Array {
  const key = path.resolve(file);
  let lock = locks.get(key);
  if (!lock) {
    lock = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
    locks.set(key, lock);
  }
  return lock;
}

/** In a worker thread: takes the lock, waiting synchronously (the thread does nothing else). */
export function acquireInThread(lock: Int32Array): void {
  Atomics.store(lock, THREAD_WAITING, 1);
  const started = performance.now();
  for (;;) {
    // Handed over by the main thread at the end of its turn.
    if (Atomics.load(lock, OWNER) === THREAD) break;
    const deferring = Atomics.load(lock, MAIN_WAITING) > 0 && performance.now() - started < THREAD_DEFER_MS;
    if (!deferring && Atomics.compareExchange(lock, OWNER, FREE, THREAD) === FREE) break;
    const owner = Atomics.load(lock, OWNER);
    if (owner === THREAD) break;
    Atomics.wait(lock, OWNER, owner, deferring ? 5 : 50);
  }
  Atomics.store(lock, THREAD_WAITING, 0);
}

/** In a worker thread: gives the lock back. */
export function releaseInThread(lock: Int32Array): void {
  Atomics.store(lock, OWNER, FREE);
  Atomics.notify(lock, OWNER);
}

/** When the thread holding the lock died: frees it, so that the main thread's writes go on. */
export function releaseDeadThread(lock: Int32Array): void {
  if (Atomics.compareExchange(lock, OWNER, THREAD, FREE) === THREAD) Atomics.notify(lock, OWNER);
  Atomics.store(lock, THREAD_WAITING, 0);
}

/** The main thread's side: its writes queue here, in order, and wait for the lock asynchronously. */
export class MainWriteLock {
  private readonly lock: Int32Array;
  /** Whether the main thread holds the lock or is waiting for it for the first of `queue`. */
  private busy = false;
  private readonly queue: (() => void)[] = [];
  private turnStarted = 0;

  constructor(lock: Int32Array) {
    this.lock = lock;
  }

  async acquire(): Promise<void> {
    Atomics.add(this.lock, MAIN_WAITING, 1);
    try {
      if (this.busy) await new Promise<void>((resolve) => this.queue.push(resolve));
      else {
        this.busy = true;
        await this.take();
      }
    } finally {
      Atomics.sub(this.lock, MAIN_WAITING, 1);
    }
  }

  release(): void {
    const next = this.queue.shift();
    if (!next) {
      this.busy = false;
      this.free();
      return;
    }
    if (Atomics.load(this.lock, THREAD_WAITING) === 1 && performance.now() - this.turnStarted >= MAIN_TURN_MS) {
      // The writer's thread's turn: hand the lock to it, take it back after its transaction.
      Atomics.store(this.lock, OWNER, THREAD);
      Atomics.notify(this.lock, OWNER);
      void this.take().then(next);
      return;
    }
    // In a later turn of the event loop: handing over in a microtask ran a queue of thousands of
    // writes (a connect storm marking devices online) in one go, holding the loop for seconds.
    setImmediate(next);
  }

  private free(): void {
    Atomics.store(this.lock, OWNER, FREE);
    Atomics.notify(this.lock, OWNER);
  }

  private async take(): Promise<void> {
    for (;;) {
      if (Atomics.compareExchange(this.lock, OWNER, FREE, MAIN) === FREE) break;
      const waited = waitAsync(this.lock, OWNER, THREAD, 1000);
      if (waited.async) await waited.value;
    }
    this.turnStarted = performance.now();
  }
}
