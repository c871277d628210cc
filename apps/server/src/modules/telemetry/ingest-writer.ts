/**
 * Batches incoming data messages into transactions. `write` answers once the message's batch
 * is committed, and the broker acknowledges a QoS 1 message (PUBACK) only then: an
 * acknowledged message is durable. One batch is written at a time: when it holds `maxPoints`
 * points, or `maxDelayMs` after its first message (when that is 0: once the messages read in the
 * same turn of the event loop are queued), whichever comes first; what arrives during a commit
 * goes into the next batch.
 */
import type { BatchPoint, BatchResult, LatestUpdate, TelemetryWriteRepository } from './telemetry-write.repository.ts';

export interface IngestMessage {
  groupId: number;
  deviceSn: string;
  points: BatchPoint[];
  /** The message's values by key for the latest-values record, with the message's time. */
  latest: { ts: number; data: Record<string, number | string> }[];
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
}

export interface WriterOptions {
  maxDelayMs: number;
  maxPoints: number;
  onError?: (error: unknown, messages: number) => void;
  onCommitted?: (messages: IngestMessage[], result: BatchResult) => void;
}

export class IngestWriter {
  private readonly repository: TelemetryWriteRepository;
  private readonly options: WriterOptions;
  private queue: Pending[] = [];
  private queuedPoints = 0;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private running: Promise<void> | undefined;
  private closed = false;
  readonly stats: WriterStats = { messages: 0, points: 0, duplicates: 0, batches: 0, failedBatches: 0, lastCommitMs: 0 };

  constructor(repository: TelemetryWriteRepository, options: WriterOptions) {
    this.repository = repository;
    this.options = options;
  }

  /** Resolves when the message is committed; rejects when its batch failed (the message is then not acknowledged). */
  write(message: IngestMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the ingest writer is closed'));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ message, resolve, reject });
      this.queuedPoints += message.points.length;
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
    });
  }

  /** Writes whatever is queued now. */
  async flush(): Promise<void> {
    this.kick();
    while (this.running) await this.running;
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  get backlog(): number {
    return this.queuedPoints;
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
        points += next.message.points.length;
      }
      this.queuedPoints -= points;
      await this.commit(batch);
    }
  }

  private async commit(batch: Pending[]): Promise<void> {
    const points: BatchPoint[] = [];
    const latest = new Map<string, LatestUpdate>();
    for (const { message } of batch) {
      for (const p of message.points) points.push(p);
      for (const l of message.latest) {
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
    const started = performance.now();
    try {
      const result = await this.repository.commit(points, [...latest.values()]);
      this.stats.lastCommitMs = performance.now() - started;
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
