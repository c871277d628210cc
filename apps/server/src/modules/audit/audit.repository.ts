/**
 * The audit trail's table: entries are added (in the audited write's transaction), read by
 * tenant, and deleted only by retention. Nothing here updates an entry.
 */
import { escapeLiteral } from 'pg';
import { CompiledQuery, sql, type Insertable, type ExpressionBuilder } from 'kysely';
import type { AuditEntryDetailDto, AuditEntryDto } from '@sluice/shared/audit.schema';
import type { Db } from '../../db/database.ts';
import type { DialectName } from '../../db/dialect-types.ts';
import { outsideRequest } from '../../db/request-transaction.ts';
import type { AuditLogTable, Database } from '../../db/tables.ts';
import { likeAny } from '../../http/resource.ts';

export type AuditInsert = Insertable<AuditLogTable>;

export interface AuditFilter {
  /** Only this tenant's entries (undefined: every tenant's, for the platform administrator). */
  groupId?: number | undefined;
  from?: number | undefined;
  to?: number | undefined;
  userId?: number | undefined;
  account?: string | undefined;
  resourceKind?: string | undefined;
  resourceId?: string | undefined;
  action?: string | undefined;
  /** A LIKE pattern (resource.ts searchPattern) over account, user name, resource name and id, address. */
  search?: string | undefined;
}

export interface AuditOrder {
  column: string;
  direction: 'asc' | 'desc';
}

const LIST_COLUMNS = [
  'a.id',
  'a.at',
  'a.group_id',
  'g.group_name',
  'a.user_id',
  'a.account',
  // The user's name now (an entry keeps the account; a deleted user's name is the one it kept, if any).
  sql<string>`coalesce(u.user_name, a.user_name)`.as('user_name'),
  'a.address',
  'a.action',
  'a.resource_kind',
  'a.resource_id',
  'a.resource_name',
  'a.owner_kind',
  'a.owner_id',
  'a.route',
  'a.changed',
] as const;

type ListRow = {
  id: number;
  at: number;
  group_id: number | null;
  group_name: string | null;
  user_id: number | null;
  account: string;
  user_name: string;
  address: string;
  action: string;
  resource_kind: string;
  resource_id: string;
  resource_name: string;
  owner_kind: string;
  owner_id: string;
  route: string;
  changed: string;
};

const parse = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));

export function auditEntryOf(row: ListRow): AuditEntryDto {
  return {
    Id: row.id,
    At: row.at,
    GroupId: row.group_id,
    GroupName: row.group_name ?? '',
    UserId: row.user_id,
    Account: row.account,
    UserName: row.user_name,
    Address: row.address,
    Action: row.action as AuditEntryDto['Action'],
    ResourceKind: row.resource_kind as AuditEntryDto['ResourceKind'],
    ResourceId: row.resource_id,
    ResourceName: row.resource_name,
    OwnerKind: row.owner_kind as AuditEntryDto['OwnerKind'],
    OwnerId: row.owner_id,
    Route: row.route,
    Changed: (parse(row.changed) as string[] | null) ?? [],
  };
}

const detailOf = (row: ListRow & { before: string | null; after: string | null }): AuditEntryDetailDto => ({
  ...auditEntryOf(row),
  Before: parse(row.before),
  After: parse(row.after),
});

const INSERT_COLUMNS = [
  'at',
  'group_id',
  'user_id',
  'account',
  'address',
  'action',
  'resource_kind',
  'resource_id',
  'resource_name',
  'owner_kind',
  'owner_id',
  'route',
  'before',
  'after',
  'changed',
] as const satisfies readonly (keyof AuditInsert)[];

/** Entries written are moved from audit_recent into audit_log this long after (or at the next read). */
const MOVE_DELAY_MS = 1000;

/**
 * Where an entry is written: on SQLite audit_recent, whose commit writes one page where
 * audit_log's four B-trees would be four; on PostgreSQL audit_log itself (index upkeep there is
 * cheap work in shared buffers, not pages written at the commit, and moving entries would only
 * churn a table).
 */
const entryTable = (dialect: DialectName) => (dialect === 'postgres' ? 'audit_log' : 'audit_recent');

/**
 * The insert's text in the database's own placeholders ($1 … on PostgreSQL, ? on SQLite). On
 * SQLite the id is one more than the highest in both tables (on PostgreSQL audit_log's sequence).
 */
function insertSql(db: Db, dialect: DialectName): string {
  const values: Record<string, unknown> = Object.fromEntries(INSERT_COLUMNS.map((column) => [column, '']));
  if (dialect === 'sqlite') {
    values.id = sql`(SELECT max(coalesce((SELECT max(id) FROM audit_log), 0), coalesce((SELECT max(id) FROM audit_recent), 0)) + 1)`;
  }
  return db
    .insertInto(entryTable(dialect))
    .values(values as unknown as AuditInsert)
    .compile().sql;
}

const MOVED_COLUMNS = ['id', 'user_name', ...INSERT_COLUMNS] as const;

export class AuditRepository {
  private readonly db: Db;
  private readonly dialect: DialectName;
  private insertSql: string | undefined;
  /** The moves asked for, one after the other. */
  private moving: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Where a move that failed in the background is reported (it is tried again at the next one). */
  onMoveError: (error: unknown) => void = () => undefined;

  constructor(db: Db, dialect: DialectName) {
    this.db = db;
    this.dialect = dialect;
  }

  /**
   * Adds an entry (to audit_recent on SQLite, moved into audit_log soon): one statement of fixed
   * text (compiled once; every audited write runs it), its values in the order of INSERT_COLUMNS.
   */
  async insert(entry: AuditInsert): Promise<void> {
    this.insertSql ??= insertSql(this.db, this.dialect);
    await this.db.executeQuery(
      CompiledQuery.raw(
        this.insertSql,
        INSERT_COLUMNS.map((column) => entry[column] ?? null),
      ),
    );
    if (entryTable(this.dialect) === 'audit_recent') this.moveSoon();
  }

  /**
   * On PostgreSQL, the entries' insert with its values written out (pg's escapeLiteral), for the
   * request's transaction to send with its COMMIT in one round trip (request-transaction.ts);
   * undefined on SQLite, which has no round trips to save.
   */
  insertText(entries: AuditInsert[]): string | undefined {
    if (this.dialect !== 'postgres' || entries.length === 0) return undefined;
    const literal = (value: unknown): string => {
      if (value === null || value === undefined) return 'NULL';
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      return escapeLiteral(typeof value === 'string' ? value : JSON.stringify(value));
    };
    const rows = entries.map((entry) => `(${INSERT_COLUMNS.map((column) => literal(entry[column])).join(', ')})`);
    return `INSERT INTO ${entryTable(this.dialect)} (${INSERT_COLUMNS.join(', ')}) VALUES ${rows.join(', ')}`;
  }

  /** Moves the entries just written into audit_log in a moment. */
  private moveSoon(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.settle().catch((error: unknown) => {
        this.onMoveError(error);
      });
    }, MOVE_DELAY_MS);
    this.timer.unref();
  }

  /** Moves every entry written so far into audit_log (the reads call it first). */
  settle(): Promise<void> {
    // On PostgreSQL entries are written into audit_log itself: nothing waits to be moved.
    if (entryTable(this.dialect) === 'audit_log') return Promise.resolve();
    const move = this.moving.catch(() => undefined).then(() => outsideRequest(() => this.move()));
    this.moving = move;
    return move;
  }

  /** Stops moving in the background and moves what is left (the app closing). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.settle();
  }

  /**
   * In one transaction: the entries up to the newest are copied into audit_log and removed from
   * audit_recent (SQLite: one process writes).
   */
  private async move(): Promise<void> {
    const top = await this.db
      .selectFrom('audit_recent')
      .select((eb) => eb.fn.max<number | null>('id').as('id'))
      .executeTakeFirst();
    if (top?.id == null) return;
    const columns = sql.join(MOVED_COLUMNS.map((c) => sql.ref(c)));
    await this.db.transaction().execute(async (trx) => {
      await sql`INSERT INTO audit_log (${columns}) SELECT ${columns} FROM audit_recent WHERE id <= ${top.id}`.execute(trx);
      await trx.deleteFrom('audit_recent').where('id', '<=', top.id).execute();
    });
  }

  private filtered(filter: AuditFilter) {
    let q = this.db
      .selectFrom('audit_log as a')
      .leftJoin('groups as g', 'g.id', 'a.group_id')
      .leftJoin('users as u', 'u.id', 'a.user_id');
    if (filter.groupId !== undefined) q = q.where('a.group_id', '=', filter.groupId);
    if (filter.from !== undefined) q = q.where('a.at', '>=', filter.from);
    if (filter.to !== undefined) q = q.where('a.at', '<', filter.to);
    if (filter.userId !== undefined) q = q.where('a.user_id', '=', filter.userId);
    if (filter.account !== undefined) q = q.where(sql<string>`lower(a.account)`, '=', filter.account.toLowerCase());
    if (filter.action !== undefined) q = q.where('a.action', '=', filter.action);
    const { resourceKind: kind, resourceId: id } = filter;
    if (kind !== undefined && id !== undefined) {
      // The record's own entries and those of what belongs to it.
      q = q.where((eb: ExpressionBuilder<Database & { a: AuditLogTable }, 'a'>) =>
        eb.or([
          eb.and([eb('a.resource_kind', '=', kind), eb('a.resource_id', '=', id)]),
          eb.and([eb('a.owner_kind', '=', kind), eb('a.owner_id', '=', id)]),
        ]),
      );
    } else if (kind !== undefined) q = q.where('a.resource_kind', '=', kind);
    else if (id !== undefined) q = q.where('a.resource_id', '=', id);
    if (filter.search !== undefined)
      q = q.where(likeAny(['a.account', 'u.user_name', 'a.resource_name', 'a.resource_id', 'a.address'], filter.search));
    return q;
  }

  /**
   * By time: within a tenant on its (group_id, at) index; across tenants by id, which follows
   * time (an entry is numbered as it is written) without an index of its own to keep up.
   */
  private sortColumn(filter: AuditFilter, order: AuditOrder): string {
    return order.column === 'a.at' && filter.groupId === undefined ? 'a.id' : order.column;
  }

  async page(
    filter: AuditFilter,
    order: AuditOrder,
    page: { no: number; size: number },
  ): Promise<{ rows: AuditEntryDto[]; count: number }> {
    await this.settle();
    const q = this.filtered(filter);
    const { count } = await q.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    const rows = await q
      .select(LIST_COLUMNS)
      .orderBy(sql.ref(this.sortColumn(filter, order)), order.direction)
      .orderBy('a.id', order.direction)
      .limit(page.size)
      .offset((page.no - 1) * page.size)
      .execute();
    return { rows: rows.map(auditEntryOf), count };
  }

  /** How many entries the filter selects. */
  async count(filter: AuditFilter): Promise<number> {
    await this.settle();
    const { count } = await this.filtered(filter)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return count;
  }

  /** Every selected entry with before and after, in order (an export; the caller caps the count). */
  async all(filter: AuditFilter, order: AuditOrder): Promise<AuditEntryDetailDto[]> {
    await this.settle();
    const rows = await this.filtered(filter)
      .select([...LIST_COLUMNS, 'a.before', 'a.after'])
      .orderBy(sql.ref(this.sortColumn(filter, order)), order.direction)
      .orderBy('a.id', order.direction)
      .execute();
    return rows.map(detailOf);
  }

  /** One entry with before and after, if the tenant (undefined: any) holds it. */
  async one(id: number, groupId: number | undefined): Promise<AuditEntryDetailDto | undefined> {
    await this.settle();
    const row = await this.filtered({ groupId })
      .select([...LIST_COLUMNS, 'a.before', 'a.after'])
      .where('a.id', '=', id)
      .executeTakeFirst();
    return row && detailOf(row);
  }

  /** The tenants that may hold entries (and null: refused sign-ins to no known account). */
  async tenants(): Promise<(number | null)[]> {
    const groups = await this.db.selectFrom('groups').select('id').orderBy('id').execute();
    return [...groups.map((g) => g.id), null];
  }

  /**
   * Deletes at most `limit` of a tenant's entries older than `cutoff`, the oldest first (on the
   * tenant's time index); answers how many (fewer than `limit`: none older are left).
   */
  async deleteExpired(groupId: number | null, cutoff: number, limit: number): Promise<number> {
    let chunk = this.db.selectFrom('audit_log').select('id').where('at', '<', cutoff).orderBy('at').limit(limit);
    chunk = groupId === null ? chunk.where('group_id', 'is', null) : chunk.where('group_id', '=', groupId);
    const result = await this.db
      .deleteFrom('audit_log')
      .where('id', 'in', (eb) => eb.selectFrom(chunk.as('c')).select('c.id'))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
