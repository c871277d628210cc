/** Where a library data point is used by device types, so that it is not deleted from under them. */
import type { Db } from '../../db/database.ts';
import { STORED_PARTS } from '../device-types/type-scope.ts';

/** The name of a device type using the data point, or undefined when none does. */
export async function typeUsingDataDefine(db: Db, groupId: number, dataDefineId: number): Promise<string | undefined> {
  // Every part naming a data point (@sluice/shared/device-type-parts).
  const [first, ...rest] = STORED_PARTS.flatMap(({ table, dataDefineColumn }) =>
    dataDefineColumn
      ? [
          db
            .selectFrom(table)
            .select('type_id')
            .where(dataDefineColumn as 'data_define_id', '=', dataDefineId),
        ]
      : [],
  );
  if (!first) return undefined;
  const users = rest.reduce((all, next) => all.unionAll(next), first);
  const row = await db
    .selectFrom('device_types')
    .select('type_name')
    .where('group_id', '=', groupId)
    .where('id', 'in', users)
    .orderBy('id')
    .executeTakeFirst();
  return row?.type_name;
}
