/**
 * Maintenance by run hours: each device's service intervals (its type's type_maintenance rows),
 * the run time counted for them (maintenance_counters) and the repair a due service opens. Every
 * write is conditional on what was read, so that two runs of the job count and open once.
 */
import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { RepairTable } from '../../db/tables.ts';

export interface MaintenancePlan {
  deviceSn: string;
  groupId: number;
  projectId: number;
  maintenanceId: number;
  runKey: string;
  name: string;
  intervalHours: number;
  /** The counter, when the device has one for this interval yet. */
  counter: { runSeconds: number; countedTo: number; serviceSeconds: number; openRepairId: number | null } | undefined;
  /** The open repair's state ('' when it is gone). */
  openRepairState: string;
}

export class MaintenanceRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Every device in a station with a service interval on its type, with its counter. */
  async plans(): Promise<MaintenancePlan[]> {
    const rows = await this.db
      .selectFrom('devices as d')
      .innerJoin('type_maintenance as m', 'm.type_id', 'd.type_id')
      .leftJoin('maintenance_counters as c', (join) =>
        join.onRef('c.device_sn', '=', 'd.device_sn').onRef('c.maintenance_id', '=', 'm.id'),
      )
      .leftJoin('repairs as r', 'r.id', 'c.open_repair_id')
      .select([
        'd.device_sn',
        'd.group_id',
        'd.project_id',
        'm.id as maintenance_id',
        'm.run_key',
        'm.name',
        'm.interval_hours',
        'c.run_seconds',
        'c.counted_to',
        'c.service_seconds',
        'c.open_repair_id',
        'r.state as open_state',
      ])
      .where('d.deleted_at', 'is', null)
      .where('d.project_id', 'is not', null)
      .whereRef('m.group_id', '=', 'd.group_id')
      .orderBy('d.device_sn')
      .orderBy('m.id')
      .execute();
    return rows.map((r) => ({
      deviceSn: r.device_sn,
      groupId: r.group_id,
      projectId: r.project_id ?? 0,
      maintenanceId: r.maintenance_id,
      runKey: r.run_key,
      name: r.name,
      intervalHours: r.interval_hours,
      counter:
        r.counted_to === null
          ? undefined
          : {
              runSeconds: r.run_seconds ?? 0,
              countedTo: r.counted_to,
              serviceSeconds: r.service_seconds ?? 0,
              openRepairId: r.open_repair_id,
            },
      openRepairState: r.open_state ?? '',
    }));
  }

  /** Starts a device's counter for an interval (counting from `from`); nothing when it has one. */
  async startCounter(plan: MaintenancePlan, from: number): Promise<void> {
    await this.db
      .insertInto('maintenance_counters')
      .values({ device_sn: plan.deviceSn, maintenance_id: plan.maintenanceId, group_id: plan.groupId, counted_to: from })
      .onConflict((oc) => oc.columns(['device_sn', 'maintenance_id']).doNothing())
      .execute();
  }

  /** Adds the run seconds of [countedTo, to) when the counter still stands at countedTo; false when another run counted them. */
  async addRun(plan: MaintenancePlan, countedTo: number, seconds: number, to: number): Promise<boolean> {
    const result = await this.db
      .updateTable('maintenance_counters')
      .set((eb) => ({ run_seconds: eb('run_seconds', '+', seconds), counted_to: to }))
      .where('device_sn', '=', plan.deviceSn)
      .where('maintenance_id', '=', plan.maintenanceId)
      .where('counted_to', '=', countedTo)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Opens the service's repair unless the counter has one open already; its id, or undefined. */
  async openRepair(plan: MaintenancePlan, repair: Insertable<RepairTable>): Promise<number | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const { id } = await trx.insertInto('repairs').values(repair).returning('id').executeTakeFirstOrThrow();
      const claimed = await trx
        .updateTable('maintenance_counters')
        .set({ open_repair_id: id })
        .where('device_sn', '=', plan.deviceSn)
        .where('maintenance_id', '=', plan.maintenanceId)
        .where('open_repair_id', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) {
        await trx.deleteFrom('repairs').where('id', '=', id).execute();
        return undefined;
      }
      return id;
    });
  }

  /** The service is done (or its repair gone): the run time so far is the new starting point. */
  async closeRepair(plan: MaintenancePlan, repairId: number): Promise<void> {
    await this.db
      .updateTable('maintenance_counters')
      .set((eb) => ({ service_seconds: eb.ref('run_seconds'), open_repair_id: null }))
      .where('device_sn', '=', plan.deviceSn)
      .where('maintenance_id', '=', plan.maintenanceId)
      .where('open_repair_id', '=', repairId)
      .execute();
  }
}
