/**
 * On SQLite the ingest writer commits in a worker thread with its own connection
 * (telemetry-write.worker.ts): node:sqlite calls are synchronous, and back-to-back commits on
 * the main thread held the thread that serves HTTP, MQTT and the timers (a fleet of 10,000
 * devices stalled it for 54–57 s). Here a commit is a message to the worker, answered once the
 * batch is committed there, so acknowledging after commit still means durable.
 *
 * Retention's deletes on SQLite run there too, a chunk at a time between the batches
 * (retention-chunks.ts), so that the main thread never runs a large delete; closing the thread
 * ends a deletion under way after its chunk.
 *
 * When the worker dies (a crash, out of memory), the batches it held are failed — their
 * messages are not acknowledged and the devices send them again — and the next commit starts a
 * new worker.
 */
import { Worker } from 'node:worker_threads';
import { releaseDeadThread, writeLockOf } from '../../db/sqlite-write-lock.ts';
import type { BatchCommitter, IngestMessage } from './ingest-writer.ts';
import type { ExpiredRows, ExpiryRequest } from './retention-chunks.ts';
import { packMessages, transferables, type PackedBatch } from './packed-batch.ts';
import type { BatchResult } from './telemetry-write.repository.ts';

export type WorkerRequest =
  | { kind: 'commit'; id: number; batch: PackedBatch; now: number }
  | { kind: 'expire'; id: number; expiry: ExpiryRequest }
  | { kind: 'forget'; deviceSn: string }
  | { kind: 'close' };

export type WorkerReply = { id: number; result: BatchResult | number } | { id: number; error: string };

interface Waiting {
  resolve: (result: BatchResult | number) => void;
  reject: (error: Error) => void;
}

export class ThreadedWriteRepository implements BatchCommitter, ExpiredRows {
  private readonly file: string;
  private readonly offsetMinutes: number;
  private readonly onError: (error: unknown) => void;
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private closed = false;

  constructor(file: string, offsetMinutes: number, onError: (error: unknown) => void) {
    this.file = file;
    this.offsetMinutes = offsetMinutes;
    this.onError = onError;
  }

  commit(messages: IngestMessage[], now = Date.now()): Promise<BatchResult> {
    // Packed: the messages' columns in typed arrays whose buffers move to the thread (packed-batch.ts).
    const batch = packMessages(messages);
    return this.call((id) => ({ kind: 'commit', id, batch, now }), transferables(batch)) as Promise<BatchResult>;
  }

  /**
   * Deletes a table's expired rows in the thread, chunk by chunk between the batches; answers
   * how many. (The thread stops early when it is closed, not on `stopped`, which the job checks between tables.)
   */
  deleteExpired(expiry: ExpiryRequest): Promise<number> {
    return this.call((id) => ({ kind: 'expire', id, expiry })) as Promise<number>;
  }

  private call(request: (id: number) => WorkerRequest, transfer: ArrayBuffer[] = []): Promise<BatchResult | number> {
    if (this.closed) return Promise.reject(new Error('the write thread is closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.thread().postMessage(request(id), transfer);
    });
  }

  /** Forgets the cached series of a device (its history was deleted). */
  forgetDevice(deviceSn: string): void {
    this.worker?.postMessage({ kind: 'forget', deviceSn } satisfies WorkerRequest);
  }

  /** Ends the thread after the batches it holds (the ingest writer is flushed first). */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage({ kind: 'close' } satisfies WorkerRequest);
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    await worker.terminate();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const lock = writeLockOf(this.file);
    const worker = new Worker(new URL('./telemetry-write.worker.ts', import.meta.url), {
      workerData: { file: this.file, offsetMinutes: this.offsetMinutes, lock },
    });
    worker.on('message', (reply: WorkerReply) => {
      const waiting = this.waiting.get(reply.id);
      if (!waiting) return;
      this.waiting.delete(reply.id);
      if ('error' in reply) waiting.reject(new Error(reply.error));
      else waiting.resolve(reply.result);
    });
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      // A thread that died inside a transaction must not keep the main thread's writes waiting.
      releaseDeadThread(lock);
      for (const waiting of this.waiting.values()) waiting.reject(error);
      this.waiting.clear();
    };
    worker.on('error', (error: Error) => {
      this.onError(error);
      failAll(error);
    });
    worker.on('exit', (code) => {
      failAll(new Error(`the write thread exited (${String(code)})`));
    });
    this.worker = worker;
    return worker;
  }
}
