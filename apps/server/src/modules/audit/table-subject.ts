/**
 * A subject whose record is one row of a group's table, read by id and shown through `toRecord`
 * (the DTO mapper the routes use; by default the columns as PascalCase keys, without group_id);
 * for the calls that are not generic resources.
 */
import type { AuditKind } from '@sluice/shared/audit.schema';
import type { Compilable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { reusableQuery } from '../../db/reusable-query.ts';
import type { AuditRef, AuditSubject } from './audit-trail.ts';

type Row = Record<string, unknown>;
type LooseDb = { selectFrom: (table: string) => Db extends unknown ? LooseQuery : never };
interface LooseQuery extends Compilable<Row> {
  selectAll: () => LooseQuery;
  where: (column: string, op: '=', value: unknown) => LooseQuery;
}

/** A row with its columns as PascalCase keys (device_sn → DeviceSn), without group_id. */
export function pascalRow(row: Row): Row {
  return Object.fromEntries(
    Object.entries(row)
      .filter(([column]) => column !== 'group_id')
      .map(([column, value]) => [column.replace(/(^|_)([a-z0-9])/g, (_, _s: string, c: string) => c.toUpperCase()), value]),
  );
}

export function tableSubject(
  kind: AuditKind,
  table: string,
  toRecord: (row: Row) => unknown = pascalRow,
  owner?: (row: Row) => AuditRef | undefined,
): AuditSubject {
  const rows = new WeakMap<object, Row>();
  const loose = (db: Db) => db as unknown as LooseDb;
  const any = reusableQuery((db, id: number) => loose(db).selectFrom(table).selectAll().where('id', '=', id));
  const inGroup = reusableQuery((db, id: number, groupId: number) =>
    loose(db).selectFrom(table).selectAll().where('id', '=', id).where('group_id', '=', groupId),
  );
  return {
    kind,
    load: async (ctx, user, id) => {
      const [row] = user ? await inGroup(ctx.db, Number(id), user.groupId) : await any(ctx.db, Number(id));
      if (!row) return null;
      const record = toRecord(row);
      if (record !== null && typeof record === 'object') rows.set(record, row);
      return record;
    },
    ...(owner
      ? {
          owner: (record: Row) => {
            const row = rows.get(record);
            return row ? owner(row) : undefined;
          },
        }
      : {}),
  };
}
