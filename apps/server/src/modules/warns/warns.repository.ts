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

export class WarnsRepository {
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

  /** Standards of data keys in a group's type statistics ('50', '6,9'): a linked code is raised while the value misses it. */
  async standards(groupId: number): Promise<Map<string, string>> {
    const rows = await this.db
      .selectFrom('type_statistics as ts')
      .innerJoin('data_defines as d', 'd.id', 'ts.data_define_id')
      .select(['d.data_key', 'ts.standard'])
      .where('ts.group_id', '=', groupId)
      .where('ts.standard', '!=', '')
      .execute();
    return new Map(rows.map((r) => [r.data_key, r.standard]));
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
