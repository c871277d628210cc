/** Alarm (Warn) records opened by devices' error codes, and the codes' descriptions and data-key links. */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { WarnTable } from '../../db/tables.ts';

export type WarnRow = Selectable<WarnTable>;

export interface CodeInfo {
  code: string;
  description: string;
  warnTypeId: number | null;
}

/**
 * Alarm limits belong to device types: a device's limit of a data key is its own type's
 * standard, else the nearest ancestor type's (an analyser below the station type takes the
 * station's unless it sets its own). One type's limit never reaches another type's devices.
 */
export class TypeStandards {
  private readonly byType: ReadonlyMap<number, ReadonlyMap<string, string>>;
  private readonly parents: ReadonlyMap<number, number>;
  /** Keys some type of the group limits: measurements, not fault flags. */
  private readonly limited: ReadonlySet<string>;

  constructor(byType: ReadonlyMap<number, ReadonlyMap<string, string>>, parents: ReadonlyMap<number, number>) {
    this.byType = byType;
    this.parents = parents;
    this.limited = new Set([...byType.values()].flatMap((m) => [...m.keys()]));
  }

  static readonly none = new TypeStandards(new Map(), new Map());

  /** The standard of `key` for a device of type `typeId`; undefined when its type (and theirs above) sets none. */
  of(typeId: number | null, key: string): string | undefined {
    // Parent 0 is a top-level type; the seen set guards against a cycle in stored data.
    const seen = new Set<number>();
    let type = typeId ?? 0;
    while (type !== 0 && !seen.has(type)) {
      seen.add(type);
      const standard = this.byType.get(type)?.get(key);
      if (standard !== undefined) return standard;
      type = this.parents.get(type) ?? 0;
    }
    return undefined;
  }

  /** Whether some type of the group limits `key` (then it is a measurement, whatever this device's type says). */
  isLimited(key: string): boolean {
    return this.limited.has(key);
  }
}

export class AlarmsRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async active(groupId: number, deviceSn: string): Promise<WarnRow[]> {
    return this.db
      .selectFrom('warns')
      .selectAll()
      .where('group_id', '=', groupId)
      .where('device_sn', '=', deviceSn)
      .where('active', '=', 1)
      .execute();
  }

  async hasActive(deviceSn: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('warns')
      .select('id')
      .where('device_sn', '=', deviceSn)
      .where('active', '=', 1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Serial numbers, among these, of devices with an active alarm. */
  async withActive(groupId: number, deviceSns: string[]): Promise<Set<string>> {
    if (deviceSns.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('warns')
      .select('device_sn')
      .distinct()
      .where('group_id', '=', groupId)
      .where('device_sn', 'in', deviceSns)
      .where('active', '=', 1)
      .execute();
    return new Set(rows.map((r) => r.device_sn));
  }

  /** The descriptions and warn types of codes of a group. */
  async codes(groupId: number, codes: string[]): Promise<Map<string, CodeInfo>> {
    if (codes.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('warn_codes')
      .select(['code', 'description', 'warn_type_id'])
      .where('group_id', '=', groupId)
      .where('code', 'in', codes)
      .execute();
    return new Map(rows.map((r) => [r.code, { code: r.code, description: r.description, warnTypeId: r.warn_type_id }]));
  }

  /** DataDefineWarnCode links of a group: data key → codes raised while the key's value is not 0. */
  async links(groupId: number): Promise<Map<string, string[]>> {
    const rows = await this.db
      .selectFrom('data_define_warn_codes')
      .select(['data_key', 'code'])
      .where('group_id', '=', groupId)
      .execute();
    const links = new Map<string, string[]>();
    for (const r of rows) links.set(r.data_key, [...(links.get(r.data_key) ?? []), r.code]);
    return links;
  }

  /** The standards ('50', '6,9') of a group's type statistics by type and data key, and the types' parents. */
  async standards(groupId: number): Promise<TypeStandards> {
    const rows = await this.db
      .selectFrom('type_statistics as ts')
      .innerJoin('data_defines as d', 'd.id', 'ts.data_define_id')
      .select(['ts.type_id', 'd.data_key', 'ts.standard'])
      .where('ts.group_id', '=', groupId)
      .where('ts.standard', '!=', '')
      .orderBy('ts.id')
      .execute();
    const types = await this.db.selectFrom('device_types').select(['id', 'parent_id']).where('group_id', '=', groupId).execute();
    const byType = new Map<number, Map<string, string>>();
    for (const r of rows) {
      const own = byType.get(r.type_id) ?? new Map<string, string>();
      if (!own.has(r.data_key)) own.set(r.data_key, r.standard);
      byType.set(r.type_id, own);
    }
    return new TypeStandards(byType, new Map(types.map((t) => [t.id, t.parent_id])));
  }

  async open(
    rows: Omit<WarnRow, 'id' | 'group_code' | 'comments' | 'state' | 'active' | 'cleared_at' | 'handled_at'>[],
  ): Promise<WarnRow[]> {
    if (rows.length === 0) return [];
    return this.db
      .insertInto('warns')
      .values(rows.map((r) => ({ ...r, cleared_at: null, handled_at: null })))
      .returningAll()
      .execute();
  }

  async close(groupId: number, ids: number[], at: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('warns')
      .set({ active: 0, cleared_at: at })
      .where('group_id', '=', groupId)
      .where('id', 'in', ids)
      .where('active', '=', 1)
      .execute();
  }
}
