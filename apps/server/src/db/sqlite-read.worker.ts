/**
 * The SQLite reader thread (see sqlite-read-thread.ts): runs the selects it is sent on a
 * read-only connection of its own and answers their rows.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';

export interface ReadRequest {
  id: number;
  sql: string;
  parameters: SQLInputValue[];
}
export type ReadReply = { id: number; rows: unknown[] } | { id: number; error: string };

const { file } = workerData as { file: string };
const port = parentPort;
if (!port) throw new Error('sqlite-read.worker.ts runs as a worker thread');
const db = new DatabaseSync(file, { readOnly: true });
db.exec('PRAGMA busy_timeout = 5000');

port.on('message', (request: ReadRequest | 'close') => {
  if (request === 'close') {
    db.close();
    port.close();
    return;
  }
  let reply: ReadReply;
  try {
    reply = { id: request.id, rows: db.prepare(request.sql).all(...request.parameters) };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
