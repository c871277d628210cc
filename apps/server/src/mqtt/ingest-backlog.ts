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
 */
const PER_TURN = 100;
const RETRY_MS = 5;

export class IngestBacklog<T> {
  private readonly busy: () => boolean;
  private readonly start: (item: T) => void;
  private items: T[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The most messages that waited at once. */
  peak = 0;
  /** Messages that waited here. */
  waited = 0;

  constructor(busy: () => boolean, start: (item: T) => void) {
    this.busy = busy;
    this.start = start;
  }

  /** Messages waiting. */
  get size(): number {
    return this.items.length - this.head;
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
      this.head += 1;
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
