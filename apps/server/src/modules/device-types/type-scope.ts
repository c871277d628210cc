/**
 * Scoping of a type's parts: the type (or module) in the path must be the caller group's, and
 * the ids a part refers to (data points, classes, modules, controls) must be the group's or the
 * same type's.
 */
import { idRef } from '@sluice/shared/schema-fields';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import type { ResourceSpec } from '../../http/resource.ts';
import type { CurrentUser } from '../account/users.repository.ts';

type Row = Record<string, unknown>;
type Parent = NonNullable<ResourceSpec<never, never, never>['parent']>;

const param = (name: string) => (request: { params: unknown }) => (request.params as Record<string, unknown> | undefined)?.[name];

/** The device type of the path (type/{typeId}/…), which must be the caller's group's. */
export async function ownType(db: Db, raw: unknown, groupId: number): Promise<number> {
  const id = idRef.safeParse(raw);
  if (!id.success) throw new AppError(404, 'error.notFound');
  const row = await db
    .selectFrom('device_types')
    .select('id')
    .where('id', '=', id.data)
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  if (!row) throw new AppError(404, 'error.notFound');
  return row.id;
}

export const typeParent = (db: Db): Parent => ({
  column: 'type_id',
  from: param('typeId'),
  resolve: (raw: unknown, user: CurrentUser) => ownType(db, raw, user.groupId),
});

export const moduleParent = (db: Db): Parent => ({
  column: 'module_id',
  from: param('moduleId'),
  resolve: async (raw: unknown, user: CurrentUser) => {
    const id = idRef.safeParse(raw);
    if (!id.success) throw new AppError(404, 'error.notFound');
    const row = await db
      .selectFrom('type_modules')
      .select('id')
      .where('id', '=', id.data)
      .where('group_id', '=', user.groupId)
      .executeTakeFirst();
    if (!row) throw new AppError(404, 'error.notFound');
    return row.id;
  },
});

const unknown = (field: string, id: unknown) => new AppError(400, 'ref.unknown', { what: field, id: String(id) }, field);

/** A library data point of the group; returns its key. */
export async function dataDefineKey(db: Db, groupId: number, id: unknown, field = 'DataDefineId'): Promise<string> {
  const parsed = idRef.safeParse(id);
  if (!parsed.success) throw unknown(field, id);
  const row = await db
    .selectFrom('data_defines')
    .select('data_key')
    .where('id', '=', parsed.data)
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  if (!row) throw unknown(field, id);
  return row.data_key;
}

export type TypePartTable = 'type_classes' | 'type_modules' | 'type_module_controls' | 'type_data_defines' | 'type_schemas';

/** A part of the same type (a module, class, control, type data point or schema node). */
export async function requireInType(db: Db, table: TypePartTable, id: unknown, typeId: number, field: string): Promise<void> {
  const parsed = idRef.safeParse(id);
  if (!parsed.success) throw unknown(field, id);
  const row = await db
    .selectFrom(table)
    .select('id')
    .where('id', '=', parsed.data)
    .where('type_id', '=', typeId)
    .executeTakeFirst();
  if (!row) throw unknown(field, id);
}

export type TypeTable =
  | 'type_data_defines'
  | 'type_arguments'
  | 'type_configs'
  | 'type_display_icons'
  | 'type_hardware_configs'
  | 'type_modules'
  | 'type_classes'
  | 'type_module_controls'
  | 'type_module_arguments'
  | 'type_module_feedbacks'
  | 'type_overviews'
  | 'type_schemas'
  | 'type_statistics'
  | 'type_images'
  | 'type_update_files';

/**
 * Hooks for a type's part: `derive` fills columns from the row alone (a data point's key) on
 * every write; `inType` checks references against the row's type, which a new row carries and
 * an updated one is looked up for.
 */
export function partHooks(
  db: Db,
  table: TypeTable,
  hooks: {
    derive?: (row: Row, user: CurrentUser) => Promise<Row>;
    inType?: (row: Row, typeId: number, user: CurrentUser, selfId?: number) => Promise<void>;
  },
) {
  return {
    beforeWrite: async (row: Row, user: CurrentUser): Promise<Row> => {
      const next = hooks.derive ? await hooks.derive(row, user) : row;
      if (typeof next.type_id === 'number') await hooks.inType?.(next, next.type_id, user);
      return next;
    },
    beforeUpdate: async (id: number, row: Row, user: CurrentUser): Promise<void> => {
      if (!hooks.inType) return;
      const own = await db.selectFrom(table).select('type_id').where('id', '=', id).executeTakeFirstOrThrow();
      await hooks.inType(row, own.type_id, user, id);
    },
  };
}
