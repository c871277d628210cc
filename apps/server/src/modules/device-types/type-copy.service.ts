/**
 * Deep copy of a device type (Type/Copy, Type/copyfiles): every part under the type, its
 * templates with their parts, and its images and firmware files (the stored bytes are copied,
 * so that deleting one type's file leaves the other's). References between parts (a control's
 * module and class, an overview's data point, a schema node's parent, a template profile's
 * panel) are remapped to the copies.
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '../../http/errors.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import type { DeviceTypesRepository } from './device-types.repository.ts';
import { STORED_PARTS, type TypeTable } from './type-parts.ts';

type Row = Record<string, unknown>;
type IdMap = Map<number, number>;

const FILE_TABLES: TypeTable[] = ['type_images', 'type_update_files'];
const TEMPLATE_PARTS: { table: string; remap?: Record<string, string> }[] = [
  { table: 'template_panels' },
  { table: 'template_accessories' },
  { table: 'template_profiles', remap: { panel_id: 'template_panels' } },
  { table: 'template_args' },
  { table: 'template_control_data', remap: { accessory_id: 'template_accessories' } },
  { table: 'template_configs' },
];

/** Inserts copies of rows, remapping references, and records old id → new id. */
async function copyRows(
  types: DeviceTypesRepository,
  table: string,
  rows: Row[],
  set: Row,
  remap: Record<string, string>,
  maps: Map<string, IdMap>,
) {
  const map: IdMap = maps.get(table) ?? new Map<number, number>();
  maps.set(table, map);
  for (const row of rows) {
    const copy: Row = { ...row, ...set };
    delete copy.id;
    for (const [column, target] of Object.entries(remap)) {
      const old = row[column];
      if (old === null || old === undefined) continue;
      copy[column] = maps.get(target)?.get(Number(old)) ?? null;
    }
    map.set(Number(row.id), await types.insertRow(table, copy));
  }
}

async function copyFile(storage: FileStorage, key: string): Promise<string> {
  const [folder = 'files', name = ''] = key.split('/');
  const extension = name.split('.').pop() ?? 'bin';
  const next = `${folder}/${randomBytes(16).toString('hex')}.${extension}`;
  const stream = await storage.open(key);
  if (!stream) throw new AppError(404, 'error.notFound');
  await storage.save(next, stream);
  return next;
}

export interface CopyResult {
  targetId: number;
  /** Storage keys written, to remove if the transaction fails. */
  written: string[];
}

/** Copies a type's images and firmware files onto another type, appending them (`types` on the caller's transaction). */
export async function copyTypeFiles(
  types: DeviceTypesRepository,
  storage: FileStorage,
  groupId: number,
  sourceId: number,
  targetId: number,
  written: string[],
): Promise<void> {
  for (const table of FILE_TABLES) {
    const rows = await types.rowsWhere(table, 'type_id', sourceId, groupId);
    for (const row of rows) {
      const key = await copyFile(storage, String(row.storage_key));
      written.push(key);
      await copyRows(types, table, [row], { type_id: targetId, storage_key: key, created_at: Date.now() }, {}, new Map());
    }
  }
}

/**
 * Copies everything under the source type into a new type (no target) or over an existing one,
 * whose parts and templates are replaced. `types` works on the caller's transaction.
 */
export async function copyType(
  types: DeviceTypesRepository,
  storage: FileStorage,
  groupId: number,
  request: { sourceId: number; targetId?: number | undefined; typeName?: string | undefined },
  written: string[],
): Promise<number> {
  const source = await types.one(request.sourceId, groupId);
  if (!source) throw new AppError(404, 'error.notFound');
  let targetId: number;
  if (request.targetId === undefined) {
    targetId = await types.insertType({
      group_id: groupId,
      type_name: request.typeName ?? `${source.type_name} (copy)`,
      icon: source.icon,
      parent_id: source.parent_id,
      description: source.description,
      status: source.status,
    });
  } else {
    if (request.targetId === request.sourceId) throw new AppError(400, 'deviceType.copySelf', {}, 'TargetId');
    const target = await types.one(request.targetId, groupId);
    if (!target) throw new AppError(404, 'error.notFound');
    targetId = target.id;
    // Replace: the target's parts go (templates cascade to their parts), its files stay.
    await types.deleteWhere('type_templates', 'type_id', targetId);
    for (const { table } of [...STORED_PARTS].reverse()) await types.deleteWhere(table, 'type_id', targetId);
  }

  const maps = new Map<string, IdMap>();
  for (const { table, refs, treeParentColumn } of STORED_PARTS) {
    const rows = await types.rowsWhere(table, 'type_id', source.id);
    if (treeParentColumn) {
      // A tree: copy flat, then point each copy at its parent's copy.
      await copyRows(types, table, rows, { type_id: targetId, [treeParentColumn]: 0 }, refs, maps);
      const map = maps.get(table) ?? new Map<number, number>();
      for (const row of rows) {
        const parentId = Number(row[treeParentColumn]);
        if (parentId === 0) continue;
        await types.setColumn(table, map.get(Number(row.id)) ?? 0, treeParentColumn, map.get(parentId) ?? 0);
      }
      continue;
    }
    await copyRows(types, table, rows, { type_id: targetId }, refs, maps);
  }

  const templates = await types.rowsWhere('type_templates', 'type_id', source.id);
  for (const template of templates) {
    const templateMaps = new Map<string, IdMap>();
    await copyRows(types, 'type_templates', [template], { type_id: targetId }, {}, templateMaps);
    const tempId = templateMaps.get('type_templates')?.get(Number(template.id)) ?? 0;
    for (const { table, remap } of TEMPLATE_PARTS) {
      const rows = await types.rowsWhere(table, 'temp_id', Number(template.id));
      await copyRows(types, table, rows, { temp_id: tempId }, remap ?? {}, templateMaps);
    }
  }

  if (request.targetId === undefined) await copyTypeFiles(types, storage, groupId, source.id, targetId, written);
  return targetId;
}
