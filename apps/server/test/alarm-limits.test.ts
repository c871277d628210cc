/**
 * Alarm limits belong to device types: the same data key limited differently on two types
 * raises each device's alarm by its own type's limit (a sub-type without its own takes its
 * parent's), and a type that limits nothing raises nothing from a measurement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, type TestApp } from './harness.ts';
import { hashDeviceSecret } from '../src/modules/devices/device-credentials.ts';
import { newDeviceRow } from '../src/modules/devices/devices.repository.ts';
import type { Db } from '../src/db/database.ts';
import type { KnownDevice } from '../src/modules/telemetry/device-directory.ts';

const COD = 'COD_Out';
const FAULT = 'AnalyserFault';

async function deviceType(db: Db, groupId: number, name: string, parentId = 0): Promise<number> {
  const row = await db
    .insertInto('device_types')
    .values({ group_id: groupId, type_name: name, parent_id: parentId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function limit(db: Db, groupId: number, typeId: number, dataDefineId: number, standard: string): Promise<void> {
  await db
    .insertInto('type_statistics')
    .values({
      group_id: groupId,
      type_id: typeId,
      data_define_id: dataDefineId,
      statics_type: 'instantaneous',
      standard,
      name: 'Effluent COD',
    })
    .execute();
}

describe.each(databaseKinds)('alarm limits per device type on %s', (kind) => {
  let t: TestApp;
  const devices = new Map<string, KnownDevice>();

  beforeAll(async () => {
    t = await createTestApp(kind, { DEMO: '0' });
    const db = t.app.ctx.db;
    const g = (await db.selectFrom('groups').select('id').executeTakeFirstOrThrow()).id;
    const cod = await db
      .insertInto('data_defines')
      .values({ group_id: g, data_key: COD, data_name: 'Effluent COD', data_type: 'readable', unit: 'mg/L' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('data_defines')
      .values({ group_id: g, data_key: FAULT, data_name: 'Analyser fault', data_type: 'boolean2' })
      .execute();
    const alarm = await db
      .insertInto('warn_types')
      .values({ group_id: g, type_name: 'Alarm' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('warn_codes')
      .values([
        { group_id: g, warn_type_id: alarm.id, code: 'A201', description: 'Effluent COD over its limit' },
        { group_id: g, warn_type_id: alarm.id, code: 'E401', description: 'Analyser fault' },
      ])
      .execute();
    await db
      .insertInto('data_define_warn_codes')
      .values([
        { group_id: g, data_key: COD, code: 'A201' },
        { group_id: g, data_key: FAULT, code: 'E401' },
      ])
      .execute();

    // The A/O station limits COD_Out to 50; the analyser below it to 100 (added after, as the
    // reviewer did); a pump below the station sets nothing of its own; a flow meter type, apart
    // from the station, limits nothing.
    const station = await deviceType(db, g, 'A/O station');
    const analyser = await deviceType(db, g, 'Online analyser', station);
    const pump = await deviceType(db, g, 'Lift pump', station);
    const meter = await deviceType(db, g, 'Flow meter');
    await limit(db, g, station, cod.id, '50');
    await limit(db, g, analyser, cod.id, '100');

    const types: [string, number | null][] = [
      ['SLT000000001', station],
      ['SLT000000002', analyser],
      ['SLT000000003', pump],
      ['SLT000000004', meter],
      ['SLT000000005', null],
    ];
    for (const [sn, typeId] of types) {
      await db
        .insertInto('devices')
        .values(newDeviceRow({ group_id: g, device_sn: sn, device_name: sn, secret_hash: hashDeviceSecret(sn), type_id: typeId }))
        .execute();
      const known = await t.app.live.directory.device(sn);
      if (!known) throw new Error(`device ${sn} unknown`);
      devices.set(sn, known);
    }
  });

  afterAll(async () => {
    await t.close();
  });

  const report = (sn: string, values: Record<string, number>) => {
    const device = devices.get(sn);
    if (!device) throw new Error(`no device ${sn}`);
    return t.app.live.alarms.fromData(device, values, Date.now());
  };
  const activeCodes = async (sn: string) =>
    (
      await t.app.ctx.db
        .selectFrom('warns')
        .select('code')
        .where('device_sn', '=', sn)
        .where('active', '=', 1)
        .orderBy('code')
        .execute()
    ).map((w) => w.code);

  it('raises each device’s alarm by its own type’s limit of the same key', async () => {
    for (const sn of devices.keys()) await report(sn, { [COD]: 80, [FAULT]: 0 });
    // 80 is over the station's 50 but within the analyser's 100.
    expect(await activeCodes('SLT000000001')).toEqual(['A201']);
    expect(await activeCodes('SLT000000002')).toEqual([]);
    // The pump's type sets no limit of its own: the station's above it holds.
    expect(await activeCodes('SLT000000003')).toEqual(['A201']);
    // Neither the flow meter's type nor a device without a type limits COD_Out: a measurement
    // other types limit is no fault flag.
    expect(await activeCodes('SLT000000004')).toEqual([]);
    expect(await activeCodes('SLT000000005')).toEqual([]);

    await report('SLT000000002', { [COD]: 120 });
    expect(await activeCodes('SLT000000002')).toEqual(['A201']);
    await report('SLT000000001', { [COD]: 40 });
    expect(await activeCodes('SLT000000001')).toEqual([]);
    await report('SLT000000002', { [COD]: 90 });
    expect(await activeCodes('SLT000000002')).toEqual([]);
  });

  it('raises a fault flag no type limits while it is not 0, whatever the device’s type', async () => {
    await report('SLT000000004', { [FAULT]: 1 });
    await report('SLT000000005', { [FAULT]: 1 });
    expect(await activeCodes('SLT000000004')).toEqual(['E401']);
    expect(await activeCodes('SLT000000005')).toEqual(['E401']);
    await report('SLT000000004', { [FAULT]: 0 });
    expect(await activeCodes('SLT000000004')).toEqual([]);
  });
});
