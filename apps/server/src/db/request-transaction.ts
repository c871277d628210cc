/**
 * A request's writes in one transaction, without handing a transaction to every repository: the
 * main database's driver is wrapped (`scopedDialect`), and while a request runs in a scope
 * (`runInScope`, AsyncLocalStorage) every query the request makes through the app's Kysely
 * instance goes through the scope.
 *
 * - A transactional scope (the audited write calls, issue 22) begins its transaction lazily, at
 *   the first statement that writes: reads before it run as they always did (on SQLite on the
 *   read-only connection, without the write lock; on PostgreSQL on any pooled connection), so a
 *   call that hashes a password or receives an upload first does not hold the write lock
 *   meanwhile. From then on every query of the request runs in that transaction; `onBegin` runs
 *   in it first (the audit reads what the call is about to change). A `db.transaction()` inside
 *   becomes a savepoint of it. The owner commits or rolls back, and then runs what was put off
 *   with `afterCommit`.
 * - An observing scope (every other API call) changes nothing; it notes whether the call wrote,
 *   so that a write by a call that declares no audit is found (audit.plugin.ts).
 *
 * On a pipelining connection (pg's pipeline mode, PostgreSQL) the statements the scope adds
 * itself do not wait for their answers before the next goes out: BEGIN goes out with onBegin's
 * reads, and a savepoint and its release with the statements around them. Their answers are
 * checked before the COMMIT (a COMMIT after a failed statement would roll back silently).
 *
 * Work a request starts and does not wait for (a timer, a queue) inherits the scope; once the
 * scope is closed its queries go on as if there were none. What must see the committed change
 * (caches, live connections, other instances, a command published to a device) goes through
 * `afterCommit`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { readsOnly } from './node-sqlite-dialect.ts';

export interface ScopeOptions {
  /** One transaction for the scope's writes; otherwise writes are only noticed (`wrote`). */
  transaction: boolean;
  /** Runs in the transaction as it begins, before the statement that began it. */
  onBegin?: () => Promise<void>;
  /** Where an error of an `afterCommit` callback goes (the write has committed: it is not undone). */
  onError?: (error: unknown) => void;
}

type Store = RequestScope | { direct: RequestScope };

const storage = new AsyncLocalStorage<Store>();

/** Inner drivers whose connections pipeline (statements sent before the previous answers). */
const pipelining = new WeakSet<Driver>();

export class RequestScope {
  readonly options: ScopeOptions;
  /** Whether a statement that writes ran in the scope. */
  wrote = false;
  state: 'open' | 'closed' = 'open';
  /** The inner driver's connection holding the transaction, once begun. */
  connection: DatabaseConnection | undefined;
  /** Set once onBegin has run: queries then go to the transaction at once. */
  ready = false;
  private driver: Driver | undefined;
  private beginning: Promise<void> | undefined;
  private readonly deferred: { work: () => unknown; answerWaits: boolean }[] = [];
  private savepoints = 0;
  /** The scope's own statements sent without waiting (pipelining); settled before the commit. */
  private readonly sent: Promise<unknown>[] = [];

  constructor(options: ScopeOptions) {
    this.options = options;
  }

  /** Whether queries through `driver` belong to this scope (the first driver used binds it). */
  owns(driver: Driver): boolean {
    if (this.state === 'closed') return false;
    this.driver ??= driver;
    return this.driver === driver;
  }

  /** Whether the scope's connection sends statements before the previous answers. */
  get pipelined(): boolean {
    return this.driver !== undefined && pipelining.has(this.driver);
  }

  /**
   * Begins the transaction (once) and runs onBegin in it: on a pipelining connection onBegin's
   * reads go out behind BEGIN at once (one round trip for both), otherwise after its answer. The
   * call's first write waits for both.
   */
  begin(): Promise<void> {
    this.beginning ??= (async () => {
      const driver = this.driver;
      if (!driver) throw new Error('The request scope is bound to no database');
      const connection = await driver.acquireConnection();
      const begun = driver.beginTransaction(connection, {});
      const read = this.pipelined ? this.runOnBegin(connection) : begun.then(() => this.runOnBegin(connection));
      const [begin, before] = await Promise.allSettled([begun, read]);
      if (begin.status === 'rejected') {
        this.connection = undefined;
        await driver.releaseConnection(connection);
        throw begin.reason;
      }
      if (before.status === 'rejected') throw before.reason;
      this.ready = true;
    })();
    return this.beginning;
  }

  private runOnBegin(connection: DatabaseConnection): Promise<void> | undefined {
    this.connection = connection;
    this.wrote = true;
    return this.options.onBegin ? storage.run({ direct: this }, this.options.onBegin) : undefined;
  }

  /** A statement of the scope's own: awaited, or on a pipelining connection only sent. */
  async send(connection: DatabaseConnection, statement: string): Promise<void> {
    const answer = connection.executeQuery(CompiledQuery.raw(statement));
    if (!this.pipelined) {
      await answer;
      return;
    }
    const settled = answer.then(() => undefined);
    settled.catch(() => undefined);
    this.sent.push(settled);
  }

  /** Throws the first error of the statements sent without waiting. */
  private async answered(): Promise<void> {
    await Promise.all(this.sent.splice(0));
  }

  nextSavepoint(): string {
    this.savepoints += 1;
    return `sluice_sp${String(this.savepoints)}`;
  }

  /** Runs `work` with its queries in the transaction (begun now if need be). */
  async within<T>(work: () => Promise<T>): Promise<T> {
    return storage.run(this, work);
  }

  /**
   * Commits what the scope wrote and then runs what waited for the commit. `lastStatement` (a
   * statement without parameters) is sent with the COMMIT as one message, so that it costs no
   * round trip of its own (the audit entry on PostgreSQL); it needs a begun transaction.
   */
  async commit(lastStatement?: string): Promise<void> {
    if (this.beginning) await this.beginning;
    const { connection, driver } = this;
    if (lastStatement !== undefined && !connection) throw new Error('No transaction to send the last statement in');
    this.state = 'closed';
    if (connection && driver) {
      try {
        await this.answered();
        if (lastStatement === undefined) await driver.commitTransaction(connection);
        else await connection.executeQuery(CompiledQuery.raw(`${lastStatement}; COMMIT`));
      } catch (error) {
        await driver.rollbackTransaction(connection).catch(() => undefined);
        this.deferred.length = 0;
        throw error;
      } finally {
        await driver.releaseConnection(connection);
      }
    }
    await this.runDeferred();
  }

  /** Undoes what the scope wrote; what waited for a commit is dropped. */
  async rollback(): Promise<void> {
    if (this.beginning) await this.beginning.catch(() => undefined);
    const { connection, driver } = this;
    this.state = 'closed';
    this.deferred.length = 0;
    if (connection && driver) {
      try {
        await this.answered().catch(() => undefined);
        await driver.rollbackTransaction(connection);
      } finally {
        await driver.releaseConnection(connection);
      }
    }
  }

  /** Closes an observing scope, starting what waited for it. */
  async close(): Promise<void> {
    this.state = 'closed';
    await this.runDeferred();
  }

  defer(work: () => unknown, answerWaits = false): void {
    this.deferred.push({ work, answerWaits });
  }

  /**
   * Starts what waited for the commit, in order, as a call outside a request starts it: the
   * answer does not wait for what it does asynchronously (a publication, a notice to other
   * instances), just as it did not before the trail — unless it said so (`answerWaits`).
   */
  private async runDeferred(): Promise<void> {
    const work = this.deferred.splice(0);
    const waited: Promise<unknown>[] = [];
    for (const { work: run, answerWaits } of work) {
      try {
        const result = storage.exit(run);
        if (!(result instanceof Promise)) continue;
        const settled = result.catch((error: unknown) => this.options.onError?.(error));
        if (answerWaits) waited.push(settled);
      } catch (error) {
        this.options.onError?.(error);
      }
    }
    await Promise.all(waited);
  }
}

/** Runs `work` in a new scope (the caller commits, rolls back or closes it). */
export function runInScope<T>(options: ScopeOptions, work: (scope: RequestScope) => Promise<T>): Promise<T> {
  const scope = new RequestScope(options);
  return storage.run(scope, () => work(scope));
}

const scopeOf = (store: Store | undefined): RequestScope | undefined =>
  store === undefined ? undefined : 'direct' in store ? store.direct : store;

/**
 * Runs `work` once the current request's writes have committed (at once outside a request, or
 * when the request has not written), outside the request's scope. Errors of deferred work go to
 * the scope's onError. The request's answer does not wait for what `work` does asynchronously,
 * unless `answerWaits` (a removal whose answer says it is done).
 */
export function afterCommit(work: () => unknown, options: { answerWaits?: boolean } = {}): void {
  const scope = scopeOf(storage.getStore());
  if (scope && scope.state === 'open' && scope.options.transaction) {
    scope.defer(work, options.answerWaits);
    return;
  }
  const result = storage.exit(work);
  if (result instanceof Promise) result.catch((error: unknown) => scope?.options.onError?.(error));
}

/**
 * Begins the current request's transaction now (when it has one), through `db`: the reads a call
 * makes next, before its first write, are then part of it too (the generic resource reads the
 * record it changes there, and that read is the audit's "before").
 */
export async function beginNow<DB>(db: Kysely<DB>): Promise<void> {
  const scope = currentScope();
  if (!scope?.options.transaction || scope.state !== 'open') return;
  await db.connection().execute(() => scope.begin());
}

/** Runs `work` outside any request scope (a timer or a queue a request starts for later). */
export function outsideRequest<T>(work: () => T): T {
  return storage.exit(work);
}

/** The scope of the current request, if any. */
export function currentScope(): RequestScope | undefined {
  return scopeOf(storage.getStore());
}

/** A query of a scope's request: into its transaction, or through the driver as if there were no scope. */
class ScopedConnection implements DatabaseConnection {
  readonly scope: RequestScope;
  private readonly driver: Driver;
  /** The savepoints of the db.transaction() calls on this connection, innermost last. */
  readonly savepoints: string[] = [];

  constructor(scope: RequestScope, driver: Driver) {
    this.scope = scope;
    this.driver = driver;
  }

  private async target(query: CompiledQuery | undefined): Promise<DatabaseConnection | undefined> {
    const scope = this.scope;
    if (scope.state === 'closed') return undefined;
    if (scope.ready && scope.connection) return scope.connection;
    if (query && readsOnly(query) && !scope.connection) return undefined;
    await scope.begin();
    return scope.connection;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const connection = await this.target(query);
    if (connection) return connection.executeQuery<R>(query);
    return passThrough(this.driver, (c) => c.executeQuery<R>(query));
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    const connection = await this.target(query);
    if (connection) {
      yield* connection.streamQuery<R>(query, chunkSize);
      return;
    }
    const own = await this.driver.acquireConnection();
    try {
      yield* own.streamQuery<R>(query, chunkSize);
    } finally {
      await this.driver.releaseConnection(own);
    }
  }

  async begin(): Promise<void> {
    const connection = await this.target(undefined);
    if (!connection) throw new Error('The request scope is closed');
    const name = this.scope.nextSavepoint();
    await this.scope.send(connection, `savepoint ${name}`);
    this.savepoints.push(name);
  }

  async release(rollback: boolean): Promise<void> {
    const name = this.savepoints.pop();
    const connection = this.scope.state === 'open' ? this.scope.connection : undefined;
    if (!name || !connection) return;
    if (rollback) await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${name}`));
    await this.scope.send(connection, `release savepoint ${name}`);
  }
}

/** A query of an observing scope: on a connection of the inner driver, noting writes. */
class ObservedConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;
  private readonly scope: RequestScope;

  constructor(scope: RequestScope, inner: DatabaseConnection) {
    this.scope = scope;
    this.inner = inner;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!readsOnly(query)) this.scope.wrote = true;
    return this.inner.executeQuery<R>(query);
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/** The transaction's connection, for onBegin's queries (which must not wait for the begin they run in). */
class DirectConnection implements DatabaseConnection {
  private readonly connection: DatabaseConnection;
  constructor(connection: DatabaseConnection) {
    this.connection = connection;
  }
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.connection.executeQuery<R>(query);
  }
  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.connection.streamQuery<R>(query, chunkSize);
  }
}

async function passThrough<T>(driver: Driver, work: (connection: DatabaseConnection) => Promise<T>): Promise<T> {
  const connection = await driver.acquireConnection();
  try {
    return await work(connection);
  } finally {
    await driver.releaseConnection(connection);
  }
}

class ScopedDriver implements Driver {
  private readonly inner: Driver;

  constructor(inner: Driver) {
    this.inner = inner;
  }

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const store = storage.getStore();
    if (store && 'direct' in store) {
      const { connection } = store.direct;
      if (connection && store.direct.state === 'open') return new DirectConnection(connection);
    }
    const scope = scopeOf(store);
    if (!scope?.owns(this.inner)) return this.inner.acquireConnection();
    if (scope.options.transaction) return new ScopedConnection(scope, this.inner);
    return new ObservedConnection(scope, await this.inner.acquireConnection());
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    if (connection instanceof ScopedConnection) return connection.begin();
    if (connection instanceof DirectConnection) throw new Error('No transaction inside an audit read');
    return this.inner.beginTransaction(innerOf(connection), settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof ScopedConnection) return connection.release(false);
    return this.inner.commitTransaction(innerOf(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof ScopedConnection) return connection.release(true);
    return this.inner.rollbackTransaction(innerOf(connection));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof ScopedConnection || connection instanceof DirectConnection) return Promise.resolve();
    return this.inner.releaseConnection(innerOf(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

const innerOf = (connection: DatabaseConnection) => (connection instanceof ObservedConnection ? connection.inner : connection);

/**
 * The dialect with its driver wrapped, so that queries made in a request scope go through it.
 * `pipelined`: its connections send a statement before the previous one is answered.
 */
export function scopedDialect(dialect: Dialect, options: { pipelined?: boolean } = {}): Dialect {
  return {
    createDriver: () => {
      const inner = dialect.createDriver();
      if (options.pipelined) pipelining.add(inner);
      return new ScopedDriver(inner);
    },
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
