/**
 * The SQLite ingest writer's thread (see threaded-write.repository.ts): its own node:sqlite
 * connection to the database file (WAL lets it write while the main thread reads), and the
 * write repository committing the batches it is sent, one at a time, with prepared multi-row
 * statements (sqlite-write.statements.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteConnection } from '../../db/node-sqlite-dialect.ts';
import { acquireInThread, releaseInThread } from '../../db/sqlite-write-lock.ts';
import { SqliteWriteStatements } from './sqlite-write.statements.ts';
import { TelemetryWriteRepository } from './telemetry-write.repository.ts';
import type { WorkerReply, WorkerRequest } from './threaded-write.repository.ts';

const { file, offsetMinutes, lock } = workerData as { file: string; offsetMinutes: number; lock: Int32Array };
const native = openSqliteConnection(file);
// Each transaction takes turns with the main thread's writes (sqlite-write-lock.ts).
const repository = new TelemetryWriteRepository(
  new SqliteWriteStatements(native, undefined, {
    acquire: () => {
      acquireInThread(lock);
    },
    release: () => {
      releaseInThread(lock);
    },
  }),
  'sqlite',
  offsetMinutes,
);
const port = parentPort;
if (!port) throw new Error('telemetry-write.worker.ts runs as a worker thread');

let chain = Promise.resolve();
port.on('message', (request: WorkerRequest) => {
  chain = chain.then(async () => {
    if (request.kind === 'forget') {
      repository.forgetDevice(request.deviceSn);
      return;
    }
    if (request.kind === 'close') {
      native.close();
      port.close();
      return;
    }
    let reply: WorkerReply;
    try {
      reply = { id: request.id, result: await repository.commit(request.points, request.latest, request.now) };
    } catch (error) {
      reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
});
