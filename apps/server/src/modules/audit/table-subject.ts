/**
 * A subject whose record is one row of a group's table, read by id and shown through `toRecord`
 * (the DTO mapper the routes use; by default the columns as PascalCase keys, without group_id);
 * for the calls that are not generic resources.
 */
import type { AuditKind } from '@sluice/shared/audit.schema';
import type { Db } from '../../db/database.ts';
import type { AuditRef, AuditSubject } from './audit-trail.ts';

type Row = Record<string, unknown>;
type LooseDb = { selectFrom: (table: string) => Db extends unknown ? LooseQuery : never };
interface LooseQuery {
  selectAll: () => LooseQuery;
  where: (column: string, op: '=', value: unknown) => LooseQuery;
  executeTakeFirst: () => Promise<Row | undefined>;
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
  return {
    kind,
    load: async (ctx, user, id) => {
      const db = ctx.db as unknown as LooseDb;
      let q = db.selectFrom(table).selectAll().where('id', '=', Number(id));
      if (user) q = q.where('group_id', '=', user.groupId);
      const row = await q.executeTakeFirst();
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
