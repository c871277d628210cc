/** What statistics read besides history: the types' statistics definitions and the sites devices stand in. */
import type { Db } from '../../db/database.ts';

export interface StatisticDefinition {
  typeId: number;
  key: string;
  name: string;
  staticsType: string;
  displayType: string;
  standard: string;
  filter: string;
  filterType: string;
  showState: boolean;
  /** The statistic's unit (SUnit), else the data point's. */
  sUnit: string;
  unit: string;
  format: string;
  /** The data point's type (boolean, enum, readable …): a discrete statistic of a state is timed, not averaged. */
  dataType: string;
}

export interface SiteRow {
  id: number;
  name: string;
  parentId: number;
  projectType: number;
  regionId: number | null;
}

export class StatisticsRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** The statistics definitions of these types of a group, in the order they were made. */
  async definitions(groupId: number, typeIds: number[]): Promise<StatisticDefinition[]> {
    if (typeIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('type_statistics as s')
      .innerJoin('data_defines as d', 'd.id', 's.data_define_id')
      .select([
        's.type_id',
        'd.data_key',
        's.name',
        's.statics_type',
        's.display_type',
        's.standard',
        's.filter_value',
        's.filter_type',
        's.show_state',
        's.s_unit',
        'd.unit',
        'd.format',
        'd.data_type',
      ])
      .where('s.group_id', '=', groupId)
      .where('s.type_id', 'in', typeIds)
      .orderBy('s.id')
      .execute();
    return rows.map((r) => ({
      typeId: r.type_id,
      key: r.data_key,
      name: r.name,
      staticsType: r.statics_type,
      displayType: r.display_type,
      standard: r.standard,
      filter: r.filter_value,
      filterType: r.filter_type,
      showState: r.show_state === 1,
      sUnit: r.s_unit || r.unit,
      unit: r.unit,
      format: r.format,
      dataType: r.data_type,
    }));
  }

  /** Each type of a group with its parent (0 for a top-level type). */
  async typeParents(groupId: number): Promise<Map<number, number>> {
    const rows = await this.db.selectFrom('device_types').select(['id', 'parent_id']).where('group_id', '=', groupId).execute();
    return new Map(rows.map((r) => [r.id, r.parent_id]));
  }

  /** Projects and stations of a group by id. */
  async sites(groupId: number, ids: number[]): Promise<SiteRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('projects')
      .select(['id', 'name', 'parent_id', 'project_type', 'region_id'])
      .where('group_id', '=', groupId)
      .where('id', 'in', ids)
      .orderBy('name')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      parentId: r.parent_id,
      projectType: r.project_type,
      regionId: r.region_id,
    }));
  }
}
