/**
 * The parts of a device type (spec §2 Device type screen, §7 Device types), described once. The
 * server derives from this each part's calls, table and reorder call, the deep copy of a type
 * (in this order, so that what a part refers to is copied before it) and the check that a data
 * point is in use; the console derives its resources and the workbench tab each part is edited
 * in. Adding a part: describe it here, give it its schemas (device-type.schema.ts), its server
 * rules (type-parts.routes.ts) and its tab.
 */

/** The workbench tabs that edit parts (the others edit images, templates and firmware). */
export type PartTab =
  | 'argument'
  | 'config'
  | 'displayIcon'
  | 'hardware'
  | 'module'
  | 'moduleClass'
  | 'moduleFeedback'
  | 'overview'
  | 'dataDefine'
  | 'schema'
  | 'statistics';

export interface TypePartDescription {
  /** The calls' name: type/{typeId}/<call>, or module/{moduleId}/<call> for a module's part. */
  call: string;
  /** What the calls hang on: the type, or one of its modules. */
  under: 'type' | 'module';
  /** The field a bulk reorder (…/Sort) sets, for parts kept in order. */
  order?: 'Sn' | 'Rank';
  /**
   * Fields naming another part of the same type (field → that part's key), remapped when a type
   * is copied; that part comes earlier in the list.
   */
  refs?: Record<string, string>;
  /** The field naming a library data point, which may then not be deleted. */
  dataDefine?: 'DataDefineId' | 'DefineId';
  /** The field naming a parent of the same part (a tree). */
  treeParent?: 'ParentId';
  tab: PartTab;
}

/** Every part, in copy order. */
export const TYPE_PARTS = {
  dataDefines: { call: 'TypeDataDefine', under: 'type', dataDefine: 'DataDefineId', tab: 'dataDefine' },
  arguments: { call: 'TypeArgument', under: 'type', dataDefine: 'DefineId', tab: 'argument' },
  configs: { call: 'TypeConfig', under: 'type', tab: 'config' },
  displayIcons: { call: 'typedisplayIcon', under: 'type', order: 'Sn', dataDefine: 'DataDefineId', tab: 'displayIcon' },
  hardwareConfigs: { call: 'TypeHardWareConfig', under: 'type', order: 'Sn', dataDefine: 'DataDefineId', tab: 'hardware' },
  classes: { call: 'Typeclass', under: 'type', order: 'Rank', tab: 'moduleClass' },
  modules: { call: 'TypeModule', under: 'type', order: 'Sn', tab: 'module' },
  moduleControls: {
    call: 'TypeModuleControl',
    under: 'type',
    order: 'Sn',
    refs: { ModuleId: 'modules', ClassId: 'classes' },
    dataDefine: 'DataDefineId',
    tab: 'module',
  },
  moduleArguments: {
    call: 'TypeModuleArgument',
    under: 'module',
    refs: { ModuleId: 'modules' },
    dataDefine: 'DataDefineId',
    tab: 'module',
  },
  moduleFeedbacks: {
    call: 'TypeModuleFeedback',
    under: 'type',
    order: 'Sn',
    refs: { ModuleControlId: 'moduleControls' },
    dataDefine: 'DataDefineId',
    tab: 'moduleFeedback',
  },
  overviews: { call: 'typeoverview', under: 'type', order: 'Sn', refs: { TypeDataDefineId: 'dataDefines' }, tab: 'overview' },
  schemas: { call: 'TypeSchema', under: 'type', dataDefine: 'DataDefineId', treeParent: 'ParentId', tab: 'schema' },
  statistics: { call: 'TypeStatistics', under: 'type', dataDefine: 'DataDefineId', tab: 'statistics' },
  // Service intervals by run hours: edited on the statistics tab, beside the run statistics.
  maintenance: { call: 'TypeMaintenance', under: 'type', dataDefine: 'DataDefineId', tab: 'statistics' },
} as const satisfies Record<string, TypePartDescription>;

export type TypePartKey = keyof typeof TYPE_PARTS;

export const TYPE_PART_KEYS = Object.keys(TYPE_PARTS) as TypePartKey[];

/** A part's description, with the optional fields as optional. */
export const typePart = (key: TypePartKey): TypePartDescription => TYPE_PARTS[key];

/** The path of a part's calls, with `{typeId}` or `{moduleId}` for its parent. */
export const typePartPath = (key: TypePartKey): `/${string}` => {
  const part = typePart(key);
  return part.under === 'module' ? `/module/{moduleId}/${part.call}` : `/type/{typeId}/${part.call}`;
};
