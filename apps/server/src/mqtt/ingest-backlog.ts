/**
 * Devices' messages that arrive while ingestion is full wait here as they came — the raw
 * payload, not yet parsed, checked or turned into points — in arrival order, and are handed to
 * ingestion as it makes room, at most PER_TURN at a time with the event loop turning between.
 *
 * Why not hand them to ingestion at once (where they would wait for the writer's room too): a
 * held connection is read again every half keep-alive (connection-hold.ts), and with 10,000
 * devices held that is thousands of messages read in the same few milliseconds; parsing and
 * checking all of them there and then held the event loop for many seconds, and their points
 * took several times the memory of their payloads.
 *
 * Its bound (INGEST_BACKLOG_BYTES) refuses nothing: a device whose connection is read sends on
 * into it. What it bounds is the reading of held connections again (connection-hold.ts), which
 * otherwise takes in everything the held devices sent meanwhile — beyond saturation, that grew
 * without end (the excess of what devices send over what the database takes, every second).
 */
const PER_TURN = 100;
const RETRY_MS = 5;

export interface BacklogBound<T> {
  /** The bytes an item counts for. */
  sizeOf: (item: T) => number;
  /** The backlog is `full` from this many bytes on. */
  maxBytes: number;
}

export class IngestBacklog<T> {
  private readonly busy: () => boolean;
  private readonly start: (item: T) => void;
  private readonly bound: BacklogBound<T> | undefined;
  private items: T[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Bytes waiting (by the bound's sizeOf). */
  bytes = 0;
  /** The most messages, and bytes, that waited at once. */
  peak = 0;
  peakBytes = 0;
  /** Messages that waited here. */
  waited = 0;

  constructor(busy: () => boolean, start: (item: T) => void, bound?: BacklogBound<T>) {
    this.busy = busy;
    this.start = start;
    this.bound = bound;
  }

  /** Messages waiting. */
  get size(): number {
    return this.items.length - this.head;
  }

  /**
   * Whether it holds its bound: a message offered now still waits here (none is refused), but
   * held connections should not be read again meanwhile (connection-hold.ts).
   */
  get full(): boolean {
    return this.bound !== undefined && this.bytes >= this.bound.maxBytes;
  }

  /**
   * Starts the message now when ingestion has room and nothing waits before it; otherwise queues
   * it (answering true: its connection should be held) to start when its turn comes.
   */
  offer(item: T): boolean {
    if (this.size === 0 && !this.busy()) {
      this.start(item);
      return false;
    }
    this.items.push(item);
    this.waited += 1;
    if (this.size > this.peak) this.peak = this.size;
    if (this.bound) {
      this.bytes += this.bound.sizeOf(item);
      if (this.bytes > this.peakBytes) this.peakBytes = this.bytes;
    }
    this.schedule();
    return true;
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, RETRY_MS);
  }

  private pump(): void {
    for (let n = 0; n < PER_TURN && this.size > 0 && !this.busy(); n++) {
      const item = this.items[this.head] as T;
      // Not kept by the array until it is compacted.
      (this.items as (T | undefined)[])[this.head] = undefined;
      this.head += 1;
      if (this.bound) this.bytes -= this.bound.sizeOf(item);
      this.start(item);
    }
    if (this.size === 0) {
      this.items = [];
      this.head = 0;
      return;
    }
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.schedule();
  }
}
