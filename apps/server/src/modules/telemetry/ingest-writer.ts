/**
 * Batches incoming data messages into transactions. `write` answers once the message's batch
 * is committed, and the broker acknowledges a QoS 1 message (PUBACK) only then: an
 * acknowledged message is durable. One batch is written at a time: when it holds `maxPoints`
 * points, or `maxDelayMs` after its first message (when that is 0: once the messages read in the
 * same turn of the event loop are queued), whichever comes first; what arrives during a commit
 * goes into the next batch.
 *
 * The writer holds at most `maxQueuedPoints` points and `maxQueuedBytes` bytes of payload
 * (queued and being committed). A message that would pass either waits, outside the queue,
 * until commits make room — and its `write` with it, so the broker does not acknowledge it;
 * while the writer is `full` the broker stops reading the connection of each device whose
 * message arrives (EmbeddedBroker): devices slow down to what the database takes, and memory
 * stays bounded by the queue plus one read per connection. A message larger than the whole
 * bound is taken alone, when nothing else is held.
 */
import type { BatchPoint, BatchResult, LatestUpdate } from './telemetry-write.repository.ts';

/**
 * A message's points, a column each: the queue holds thousands of messages beyond saturation,
 * and an object a point (with the values record the latest values were merged from) made a
 * queued point cost about 250 bytes of heap, and the young generation's collections copy every
 * object still waiting.
 */
export interface IngestMessage {
  groupId: number;
  deviceSn: string;
  keys: string[];
  ts: number[];
  /** The number stored, or NaN when the point holds a text. */
  num: number[];
  /** The texts, by point, when the message has any. */
  txt: (string | null)[] | undefined;
  /** 1 when the point's key has a data definition. */
  defined: number[];
  /** The size of the message's payload, counted against maxQueuedBytes. */
  bytes: number;
}

/** A message's points as the write repository takes them. */
export function pointsOf(message: IngestMessage): BatchPoint[] {
  const { groupId, deviceSn, keys, ts, num, txt, defined } = message;
  return keys.map((key, i) => {
    const n = num[i] ?? NaN;
    return {
      groupId,
      deviceSn,
      key,
      defined: defined[i] === 1,
      ts: ts[i] ?? 0,
      num: Number.isNaN(n) ? null : n,
      txt: txt?.[i] ?? null,
    };
  });
}

/** A message's stored values by time (a record each), for the latest-values record and alarms. */
export function latestOf(message: IngestMessage): { ts: number; data: Record<string, number | string> }[] {
  const byTime = new Map<number, Record<string, number | string>>();
  const { keys, ts, num, txt } = message;
  for (const [i, key] of keys.entries()) {
    const at = ts[i] ?? 0;
    const data = byTime.get(at) ?? {};
    const n = num[i] ?? NaN;
    data[key] = Number.isNaN(n) ? (txt?.[i] ?? '') : n;
    byTime.set(at, data);
  }
  return [...byTime].map(([at, data]) => ({ ts: at, data }));
}

/**
 * A batch's points, and a latest-values record a device: its messages' values by time, the
 * newer winning, an older record filling only the keys the newer ones lack.
 */
export function batchOf(messages: IngestMessage[]): { points: BatchPoint[]; latest: LatestUpdate[] } {
  const points: BatchPoint[] = [];
  const latest = new Map<string, LatestUpdate>();
  for (const message of messages) {
    for (const p of pointsOf(message)) points.push(p);
    for (const l of latestOf(message)) {
      const current = latest.get(message.deviceSn);
      if (!current)
        latest.set(message.deviceSn, { groupId: message.groupId, deviceSn: message.deviceSn, ts: l.ts, data: { ...l.data } });
      else if (l.ts >= current.ts) {
        Object.assign(current.data, l.data);
        current.ts = l.ts;
      } else {
        // An older record fills only keys the newer ones lack.
        current.data = { ...l.data, ...current.data };
      }
    }
  }
  return { points, latest: [...latest.values()] };
}

/**
 * Commits a batch of messages in one transaction: on SQLite in the writer's thread
 * (ThreadedWriteRepository, which posts the messages packed and makes the points there), on
 * PostgreSQL a TelemetryWriteRepository through `committerOf`.
 */
export interface BatchCommitter {
  commit(messages: IngestMessage[]): Promise<BatchResult>;
  /** Forgets the cached series of a device (its history was deleted). */
  forgetDevice(deviceSn: string): void;
}

/** A write repository committing the points and latest records of each batch of messages. */
export function committerOf(repository: {
  commit(points: BatchPoint[], latest: LatestUpdate[]): Promise<BatchResult>;
  forgetDevice(deviceSn: string): void;
}): BatchCommitter {
  return {
    commit: (messages) => {
      const { points, latest } = batchOf(messages);
      return repository.commit(points, latest);
    },
    forgetDevice: (deviceSn) => {
      repository.forgetDevice(deviceSn);
    },
  };
}

interface Pending {
  message: IngestMessage;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface WriterStats {
  messages: number;
  points: number;
  duplicates: number;
  batches: number;
  failedBatches: number;
  /** Milliseconds of the last batch's transaction. */
  lastCommitMs: number;
  /** The most points and payload bytes held at once (queued and being committed). */
  peakPoints: number;
  peakBytes: number;
  /** Messages that had to wait for room. */
  waited: number;
}

export interface WriterOptions {
  maxDelayMs: number;
  maxPoints: number;
  maxQueuedPoints: number;
  maxQueuedBytes: number;
  onError?: (error: unknown, messages: number) => void;
  onCommitted?: (messages: IngestMessage[], result: BatchResult) => void;
}

export class IngestWriter {
  private readonly repository: BatchCommitter;
  private readonly options: WriterOptions;
  private queue: Pending[] = [];
  private queuedPoints = 0;
  /** Points and bytes held: queued, and in the batch being committed. */
  private heldPoints = 0;
  private heldBytes = 0;
  /** Messages waiting for room, in arrival order. */
  private waiting: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private running: Promise<void> | undefined;
  private closed = false;
  readonly stats: WriterStats = {
    messages: 0,
    points: 0,
    duplicates: 0,
    batches: 0,
    failedBatches: 0,
    lastCommitMs: 0,
    peakPoints: 0,
    peakBytes: 0,
    waited: 0,
  };

  private readonly commitListeners: ((seconds: number) => void)[] = [];

  /** Hears how long each committed batch took (metrics). */
  onCommit(listener: (seconds: number) => void): void {
    this.commitListeners.push(listener);
  }

  constructor(repository: BatchCommitter, options: WriterOptions) {
    this.repository = repository;
    this.options = options;
  }

  /** Resolves when the message is committed; rejects when its batch failed (the message is then not acknowledged). */
  write(message: IngestMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the ingest writer is closed'));
    return new Promise<void>((resolve, reject) => {
      const pending = { message, resolve, reject };
      if (this.waiting.length > 0 || !this.fits(message)) {
        this.stats.waited += 1;
        this.waiting.push(pending);
        return;
      }
      this.enqueue(pending);
    });
  }

  /** Whether the message may be held now. */
  private fits({ keys, bytes }: IngestMessage): boolean {
    if (this.heldPoints === 0 && this.heldBytes === 0) return true;
    return this.heldPoints + keys.length <= this.options.maxQueuedPoints && this.heldBytes + bytes <= this.options.maxQueuedBytes;
  }

  /** Lets waiting messages in, in order, as far as there is room. */
  private admitWaiting(): void {
    while (this.waiting.length > 0) {
      const next = this.waiting[0];
      if (!next || !this.fits(next.message)) break;
      this.waiting.shift();
      this.enqueue(next);
    }
  }

  private enqueue(pending: Pending): void {
    const { message } = pending;
    this.queue.push(pending);
    this.queuedPoints += message.keys.length;
    this.heldPoints += message.keys.length;
    this.heldBytes += message.bytes;
    if (this.heldPoints > this.stats.peakPoints) this.stats.peakPoints = this.heldPoints;
    if (this.heldBytes > this.stats.peakBytes) this.stats.peakBytes = this.heldBytes;
    // Without a linger time, a batch starts at once when none is running (group commit:
    // what arrives while a batch commits goes into the next one).
    if (this.queuedPoints >= this.options.maxPoints) this.kick();
    else if (this.options.maxDelayMs === 0) {
      // After the messages read in this turn of the event loop, so that they share a commit.
      this.immediate ??= setImmediate(() => {
        this.immediate = undefined;
        this.kick();
      });
    } else
      this.timer ??= setTimeout(() => {
        this.kick();
      }, this.options.maxDelayMs);
  }

  /** Writes whatever is queued now, and what waits for room. */
  async flush(): Promise<void> {
    do {
      this.kick();
      while (this.running) await this.running;
    } while (this.queue.length > 0 || this.waiting.length > 0);
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  /** Points held (queued and being committed). */
  get backlog(): number {
    return this.heldPoints;
  }

  /** Whether the writer holds all it may: a message now would wait for room. */
  get full(): boolean {
    return (
      this.waiting.length > 0 || this.heldPoints >= this.options.maxQueuedPoints || this.heldBytes >= this.options.maxQueuedBytes
    );
  }

  /** Messages waiting for room. */
  get waitingMessages(): number {
    return this.waiting.length;
  }

  private kick(): void {
    if (this.immediate) {
      clearImmediate(this.immediate);
      this.immediate = undefined;
    }
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.running || this.queue.length === 0) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.queue.length > 0) this.kick();
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch: Pending[] = [];
      let points = 0;
      while (this.queue.length > 0 && (batch.length === 0 || points < this.options.maxPoints)) {
        const next = this.queue.shift();
        if (!next) break;
        batch.push(next);
        points += next.message.keys.length;
      }
      this.queuedPoints -= points;
      await this.commit(batch);
    }
  }

  private async commit(batch: Pending[]): Promise<void> {
    const started = performance.now();
    try {
      const result = await this.repository.commit(batch.map((p) => p.message)).finally(() => {
        for (const { message } of batch) {
          this.heldPoints -= message.keys.length;
          this.heldBytes -= message.bytes;
        }
        this.admitWaiting();
      });
      this.stats.lastCommitMs = performance.now() - started;
      for (const listener of this.commitListeners) listener(this.stats.lastCommitMs / 1000);
      this.stats.batches += 1;
      this.stats.messages += batch.length;
      this.stats.points += result.inserted;
      this.stats.duplicates += result.duplicates;
      for (const p of batch) p.resolve();
      this.options.onCommitted?.(
        batch.map((p) => p.message),
        result,
      );
    } catch (error) {
      this.stats.failedBatches += 1;
      this.options.onError?.(error, batch.length);
      for (const p of batch) p.reject(error);
    }
  }
}
