/**
 * SQLite: a Kysely instance whose selects run in a worker thread with a read-only connection of
 * its own (sqlite-read.worker.ts), for the long reads of history (a year's chart of ten keys
 * took 250–560 ms, and node:sqlite is synchronous: on the main thread that long nothing else is
 * served). The query is built on the main thread and its rows come back as a message; only
 * selects (it refuses anything else, and transactions).
 */
import { Worker } from 'node:worker_threads';
import { Kysely, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';
import type { Database } from './tables.ts';
import { NodeSqliteDialect, readsOnly, toSqlite } from './node-sqlite-dialect.ts';
import type { ReadReply, ReadRequest } from './sqlite-read.worker.ts';
import { registerColumnReader } from './select-columns.ts';

type Reply = Extract<ReadReply, { names: string[] }>;

interface Waiting {
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
}

/** The reader thread's columns as the row objects Kysely expects. */
function rowsOf({ names, columns, length }: Reply): Record<string, unknown>[] {
  const rows = new Array<Record<string, unknown>>(length);
  for (let r = 0; r < length; r++) {
    const row: Record<string, unknown> = {};
    for (let c = 0; c < names.length; c++) row[names[c] ?? ''] = columns[c]?.[r];
    rows[r] = row;
  }
  return rows;
}

class ReadThread implements DatabaseConnection {
  private readonly file: string;
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private closed = false;

  constructor(file: string) {
    this.file = file;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!readsOnly(query)) throw new Error('the reader thread only runs selects');
    const rows = rowsOf(await this.read(query));
    return { rows: rows as R[] };
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('the reader thread does not stream');
  }

  /** A select's columns as the thread sends them, without making row objects (select-columns.ts). */
  read(query: CompiledQuery): Promise<Reply> {
    if (!readsOnly(query)) return Promise.reject(new Error('the reader thread only runs selects'));
    if (this.closed) return Promise.reject(new Error('the reader thread is closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.thread().postMessage({ id, sql: query.sql, parameters: query.parameters.map(toSqlite) } satisfies ReadRequest);
    });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./sqlite-read.worker.ts', import.meta.url), { workerData: { file: this.file } });
    worker.unref();
    worker.on('message', (reply: ReadReply) => {
      const waiting = this.waiting.get(reply.id);
      if (!waiting) return;
      this.waiting.delete(reply.id);
      if ('error' in reply) waiting.reject(new Error(reply.error));
      else waiting.resolve(reply);
    });
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.waiting.values()) waiting.reject(error);
      this.waiting.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => {
      failAll(new Error(`the reader thread exited (${String(code)})`));
    });
    this.worker = worker;
    return worker;
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    // The thread is unref'd so that it never holds the process open; while it closes it must,
    // else a process with nothing else left ends with this close pending (exit code 13).
    worker.ref();
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage('close');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 2000)))]);
    clearTimeout(timer);
    await worker.terminate();
  }
}

class ReadThreadDriver implements Driver {
  readonly thread: ReadThread;
  constructor(file: string) {
    this.thread = new ReadThread(file);
  }
  init(): Promise<void> {
    return Promise.resolve();
  }
  acquireConnection(): Promise<DatabaseConnection> {
    return Promise.resolve(this.thread);
  }
  beginTransaction(): Promise<void> {
    return Promise.reject(new Error('the reader thread has no transactions'));
  }
  commitTransaction(): Promise<void> {
    return Promise.reject(new Error('the reader thread has no transactions'));
  }
  rollbackTransaction(): Promise<void> {
    return Promise.reject(new Error('the reader thread has no transactions'));
  }
  releaseConnection(): Promise<void> {
    return Promise.resolve();
  }
  destroy(): Promise<void> {
    return this.thread.close();
  }
}

/** Selects on the database file, run in a thread of their own. */
export function openReadThread(file: string): Kysely<Database> {
  const driver = new ReadThreadDriver(file);
  const db = new Kysely<Database>({ dialect: new NodeSqliteDialect(driver) });
  registerColumnReader(db, (query) => driver.thread.read(query));
  return db;
}
