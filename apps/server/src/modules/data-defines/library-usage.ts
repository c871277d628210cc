/** Where a library data point is used by device types, so that it is not deleted from under them. */
import type { Db } from '../../db/database.ts';

/** The name of a device type using the data point, or undefined when none does. */
export async function typeUsingDataDefine(db: Db, groupId: number, dataDefineId: number): Promise<string | undefined> {
  const users = db
    .selectFrom('type_data_defines')
    .select('type_id')
    .where('data_define_id', '=', dataDefineId)
    .unionAll(db.selectFrom('type_arguments').select('type_id').where('define_id', '=', dataDefineId))
    .unionAll(db.selectFrom('type_display_icons').select('type_id').where('data_define_id', '=', dataDefineId))
    .unionAll(db.selectFrom('type_hardware_configs').select('type_id').where('data_define_id', '=', dataDefineId))
    .unionAll(db.selectFrom('type_module_controls').select('type_id').where('data_define_id', '=', dataDefineId))
    .unionAll(db.selectFrom('type_module_arguments').select('type_id').where('data_define_id', '=', dataDefineId))
    .unionAll(db.selectFrom('type_module_feedbacks').select('type_id').where('data_define_id', '=', dataDefineId))
    .unionAll(db.selectFrom('type_schemas').select('type_id').where('data_define_id', '=', dataDefineId))
    .unionAll(db.selectFrom('type_statistics').select('type_id').where('data_define_id', '=', dataDefineId));
  const row = await db
    .selectFrom('device_types')
    .select('type_name')
    .where('group_id', '=', groupId)
    .where('id', 'in', users)
    .orderBy('id')
    .executeTakeFirst();
  return row?.type_name;
}
