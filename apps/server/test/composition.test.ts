/**
 * The composition root builds the server's services without any HTTP route (as a job runner or a
 * CLI would), with the devices' events and their named handlers subscribed: a device added
 * through the service starts from its type's standard template, and a purge takes its data along.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createContext } from '../src/app-context.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { createTenant } from '../src/modules/groups/tenancy.service.ts';
import { createPgDatabase, databaseKinds } from './harness.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openScratch(kind: string): Promise<{ handle: DatabaseHandle; dataDir: string }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sluice-composition-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const pg = kind === 'postgres' ? await createPgDatabase() : undefined;
  if (pg) cleanups.push(pg.drop);
  const handle = await openDatabase({ dataDir, databaseUrl: pg?.url });
  cleanups.push(() => handle.close());
  return { handle, dataDir };
}

describe.each(databaseKinds)('the composition root on %s', (kind) => {
  it('names the handlers each device event runs', async () => {
    const { handle, dataDir } = await openScratch(kind);
    const ctx = createContext(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), handle.db, handle.dialect);
    expect(ctx.deviceEvents.handlerNames()).toEqual({
      created: ["copy the type's standard template to the device"],
      typeChanged: ["replace what the old type put on the device by the new type's standard template"],
      purged: [
        "delete the device's live data and history",
        "delete the device's own data points and panels",
        "forget the accounts' layouts of the device's page",
        "delete the device's cameras",
        "delete the device's HJ 212 logger credential",
      ],
      changed: [],
    });
  });

  it('runs the devices service without routes: a new device gets its standard template, a purge takes it along', async () => {
    const { handle, dataDir } = await openScratch(kind);
    const ctx = createContext(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), handle.db, handle.dialect);
    const { db } = ctx;
    const tenant = await createTenant(db, { groupName: 'Graph Water', code: 'graph', adminAccount: 'grapher' });
    const user = await ctx.users.current(tenant.adminId);
    if (!user) throw new Error('no user');
    const type = await db
      .insertInto('device_types')
      .values({ group_id: tenant.groupId, type_name: 'Blower' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const template = await db
      .insertInto('type_templates')
      .values({ group_id: tenant.groupId, type_id: type.id, temp_name: 'Standard', is_standard: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('template_panels')
      .values({ group_id: tenant.groupId, temp_id: template.id, panel_type_id: 2, panel_name: 'Air' })
      .execute();
    const changed: string[] = [];
    ctx.deviceEvents.onChanged('record', (sn) => changed.push(sn));

    const { sn } = await ctx.devices.create(user, { DeviceName: 'Blower 1', TypeId: type.id });
    const panels = await db.selectFrom('device_panels').select(['panel_name', 'from_type']).where('device_sn', '=', sn).execute();
    expect(panels).toEqual([{ panel_name: 'Air', from_type: 1 }]);

    await ctx.devices.recycle(user, sn);
    await ctx.devices.purge(user, sn);
    expect(await db.selectFrom('device_panels').select('id').where('device_sn', '=', sn).execute()).toEqual([]);
    expect(await db.selectFrom('devices').select('id').where('device_sn', '=', sn).execute()).toEqual([]);
    expect(changed).toContain(sn);
  });
});
