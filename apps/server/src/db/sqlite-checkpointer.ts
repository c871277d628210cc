/**
 * SQLite only: WAL checkpoints off the event loop. node:sqlite calls are synchronous, and an
 * automatic checkpoint runs inside whichever commit crosses the WAL's size threshold, stalling
 * every request and MQTT message meanwhile (a 130 ms commit was seen under live load). A
 * worker thread with its own connection runs passive checkpoints (which never block the
 * writer) several times a second, so that when the app's own automatic checkpoint comes, the
 * pages are already copied and it only has to restart the WAL. (Turning the automatic one off
 * is not enough: under a continuous stream of commits a passive checkpoint never catches up
 * completely, and the WAL would grow without end.)
 */
import { Worker } from 'node:worker_threads';

const WORKER = `
const { DatabaseSync } = require('node:sqlite');
const { parentPort, workerData } = require('node:worker_threads');
const db = new DatabaseSync(workerData.file);
db.exec('PRAGMA busy_timeout = 1000');
const timer = setInterval(() => {
  try { db.exec('PRAGMA wal_checkpoint(PASSIVE)'); } catch (error) { parentPort.postMessage(String(error)); }
}, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

export class SqliteCheckpointer {
  private worker: Worker | undefined;

  start(file: string, onError: (message: string) => void, intervalMs = 200): void {
    const worker = new Worker(WORKER, { eval: true, workerData: { file, intervalMs } });
    worker.on('message', (message: unknown) => {
      onError(String(message));
    });
    worker.on('error', (error: unknown) => {
      onError(error instanceof Error ? error.message : String(error));
    });
    worker.unref();
    this.worker = worker;
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage('stop');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
  }
}
