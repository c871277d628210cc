/**
 * Scoping of a type's parts: the type (or module) in the path must be the caller group's, and
 * the ids a part refers to (data points, classes, modules, controls) must be the group's or the
 * same type's.
 */
import { TYPE_PARTS, TYPE_PART_KEYS, typePart, type TypePartKey } from '@sluice/shared/device-type-parts';
import { idRef } from '@sluice/shared/schema-fields';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import { snake, type ResourceSpec } from '../../http/resource.ts';
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

/** The tables of a type's parts: `type_` and the snake_case of the part's key (hardwareConfigs → type_hardware_configs). */
export type TypePartTable =
  | 'type_data_defines'
  | 'type_arguments'
  | 'type_configs'
  | 'type_display_icons'
  | 'type_hardware_configs'
  | 'type_classes'
  | 'type_modules'
  | 'type_module_controls'
  | 'type_module_arguments'
  | 'type_module_feedbacks'
  | 'type_overviews'
  | 'type_schemas'
  | 'type_statistics';

export const partTable = (key: TypePartKey): TypePartTable => `type_${snake(key)}` as TypePartTable;

/** A part described in @sluice/shared/device-type-parts, with its table and its fields as columns. */
export interface StoredPart {
  key: TypePartKey;
  table: TypePartTable;
  /** Column → the table of the part it names. */
  refs: Record<string, TypePartTable>;
  /** The column naming a library data point. */
  dataDefineColumn: string | undefined;
  /** The column naming a parent node of the same part. */
  treeParentColumn: string | undefined;
}

/** Every part, in copy order (a part after those it names). */
export const STORED_PARTS: StoredPart[] = TYPE_PART_KEYS.map((key) => {
  const part = typePart(key);
  return {
    key,
    table: partTable(key),
    refs: Object.fromEntries(
      Object.entries(part.refs ?? {}).map(([field, target]) => [snake(field), partTable(target as TypePartKey)]),
    ),
    dataDefineColumn: part.dataDefine && snake(part.dataDefine),
    treeParentColumn: part.treeParent && snake(part.treeParent),
  };
});

type Described = typeof TYPE_PARTS;
type OrderOf<K extends TypePartKey> = Described[K] extends { order: infer O } ? O : never;
type RouteSpec = `${'GET' | 'POST' | 'PUT' | 'DELETE'} /${string}`;

/**
 * A part's table and calls for registerResource: list, get, create, update and remove under
 * type/:typeId/<call> (or module/:moduleId/), and the bulk reorder …/Sort of a part kept in order.
 */
export function partResource<K extends TypePartKey>(
  key: K,
): {
  table: TypePartTable;
  routes: Record<'list' | 'get' | 'create' | 'update' | 'remove', RouteSpec>;
  reorder?: { route: RouteSpec; key: OrderOf<K> };
} {
  const part = typePart(key);
  const base: `/${string}` = part.under === 'module' ? `/module/:moduleId/${part.call}` : `/type/:typeId/${part.call}`;
  const routes = {
    list: `GET ${base}`,
    get: `GET ${base}/:id`,
    create: `POST ${base}`,
    update: `PUT ${base}`,
    remove: `DELETE ${base}/:id`,
  } as const;
  if (!part.order) return { table: partTable(key), routes };
  return { table: partTable(key), routes, reorder: { route: `PUT ${base}/Sort`, key: part.order as OrderOf<K> } };
}

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

/** The tables under a type: its parts and its files. */
export type TypeTable = TypePartTable | 'type_images' | 'type_update_files';

/**
 * Hooks for a type's part: `derive` fills columns from the row alone (a data point's key) on
 * every write; `inType` checks references against the row's type, which a new row carries and
 * an updated one is looked up for.
 */
export function partHooks(
  db: Db,
  part: TypePartKey,
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
      const own = await db.selectFrom(partTable(part)).select('type_id').where('id', '=', id).executeTakeFirstOrThrow();
      await hooks.inType(row, own.type_id, user, id);
    },
  };
}
