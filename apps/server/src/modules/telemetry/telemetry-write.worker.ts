/**
 * The SQLite ingest writer's thread (see threaded-write.repository.ts): its own node:sqlite
 * connection to the database file (WAL lets it write while the main thread reads), and the
 * write repository committing the batches it is sent, one at a time, with prepared multi-row
 * statements (sqlite-write.statements.ts); and retention's deletes (retention-chunks.ts), a
 * chunk at a time, the batches that arrived meanwhile committed before the next chunk.
 */
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { openSqliteConnection } from '../../db/node-sqlite-dialect.ts';
import { acquireInThread, releaseInThread } from '../../db/sqlite-write-lock.ts';
import { SqliteExpiredChunks, deleteInChunks } from './retention-chunks.ts';
import { SqliteWriteStatements } from './sqlite-write.statements.ts';
import { batchOf } from './ingest-writer.ts';
import { unpackMessages } from './packed-batch.ts';
import { TelemetryWriteRepository, type BatchResult } from './telemetry-write.repository.ts';
import type { WorkerReply, WorkerRequest } from './threaded-write.repository.ts';

const { file, offsetMinutes, lock } = workerData as { file: string; offsetMinutes: number; lock: Int32Array };
const native = openSqliteConnection(file);
// Each transaction takes turns with the main thread's writes (sqlite-write-lock.ts).
const turns = {
  acquire: () => {
    acquireInThread(lock);
  },
  release: () => {
    releaseInThread(lock);
  },
};
const repository = new TelemetryWriteRepository(new SqliteWriteStatements(native, undefined, turns), 'sqlite', offsetMinutes);
const expired = new SqliteExpiredChunks(native, turns);
if (!parentPort) throw new Error('telemetry-write.worker.ts runs as a worker thread');
const port: MessagePort = parentPort;

/** Work in order: batches, chunks of deletes, the close. */
let chain: Promise<unknown> = Promise.resolve();
const inTurn = <T>(work: () => T | Promise<T>): Promise<T> => {
  const done = chain.then(work);
  chain = done.catch(() => undefined);
  return done;
};
let closing = false;

const answer = (id: number, work: () => Promise<BatchResult | number>) => {
  void work().then(
    (result) => {
      port.postMessage({ id, result } satisfies WorkerReply);
    },
    (error: unknown) => {
      port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies WorkerReply);
    },
  );
};

const handle = (request: WorkerRequest): void => {
  switch (request.kind) {
    case 'commit':
      answer(request.id, () =>
        inTurn(() => {
          const { points, latest } = batchOf(unpackMessages(request.batch));
          return repository.commit(points, latest, request.now);
        }),
      );
      return;
    case 'expire':
      // Before each chunk, the messages that came meanwhile take their turn: their batches go first.
      answer(request.id, () =>
        deleteInChunks(
          (chunk) => inTurn(() => expired.deleteChunk(chunk)),
          request.expiry,
          takeWaitingMessages,
          () => closing,
        ),
      );
      return;
    case 'forget':
      void inTurn(() => {
        repository.forgetDevice(request.deviceSn);
      });
      return;
    case 'close':
      closing = true;
      void inTurn(() => {
        native.close();
        port.close();
      });
  }
};

function takeWaitingMessages(): void {
  for (let message = receiveMessageOnPort(port); message; message = receiveMessageOnPort(port)) {
    handle(message.message as WorkerRequest);
  }
}

port.on('message', handle);
