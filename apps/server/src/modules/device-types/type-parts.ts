/**
 * The parts of a device type as the server stores them: each part described in
 * @sluice/shared/device-type-parts with its table (`type_` and the snake_case of its key) and its
 * fields as columns, in copy order; and a part's calls for the generic resource.
 */
import { TYPE_PARTS, TYPE_PART_KEYS, typePart, type TypePartKey } from '@sluice/shared/device-type-parts';
import type { AuditKind } from '@sluice/shared/audit.schema';
import { ownerColumn, snake } from '../../http/resource.ts';

/** Each part's name in the audit trail. */
const AUDIT_KIND: Record<TypePartKey, AuditKind> = {
  dataDefines: 'typeDataDefine',
  arguments: 'typeArgument',
  configs: 'typeConfig',
  displayIcons: 'typeDisplayIcon',
  hardwareConfigs: 'typeHardware',
  classes: 'typeClass',
  modules: 'typeModule',
  moduleControls: 'typeModuleControl',
  moduleArguments: 'typeModuleArgument',
  moduleFeedbacks: 'typeModuleFeedback',
  overviews: 'typeOverview',
  schemas: 'typeSchema',
  statistics: 'typeStatistic',
  maintenance: 'typeMaintenance',
};

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
  | 'type_statistics'
  | 'type_maintenance';

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
  /** The entries of a part's writes belong to its type. */
  audit: { kind: AuditKind; owner: ReturnType<typeof ownerColumn> };
} {
  const audit = { kind: AUDIT_KIND[key], owner: ownerColumn('deviceType', 'type_id') };
  const part = typePart(key);
  const base: `/${string}` = part.under === 'module' ? `/module/:moduleId/${part.call}` : `/type/:typeId/${part.call}`;
  const routes = {
    list: `GET ${base}`,
    get: `GET ${base}/:id`,
    create: `POST ${base}`,
    update: `PUT ${base}`,
    remove: `DELETE ${base}/:id`,
  } as const;
  if (!part.order) return { table: partTable(key), routes, audit };
  return { table: partTable(key), routes, audit, reorder: { route: `PUT ${base}/Sort`, key: part.order as OrderOf<K> } };
}

/** The tables under a type: its parts and its files. */
export type TypeTable = TypePartTable | 'type_images' | 'type_update_files';
