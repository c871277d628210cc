/**
 * `npm start` with DEMO on: the demo stations come alive. The simulator runs in-process and
 * connects to the embedded broker like real gateways, as the demo devices the seed marked
 * online (the others stay offline, as in the field). Each device publishes the keys of its
 * device type (a second lift pump reports its pump as pump 1, like its own controller would);
 * its credential is the demo secret the seed stored, so nothing else is provisioned.
 */
import type { FastifyInstance } from 'fastify';
import { Fleet, type SimDevice } from '@sluice/simulator/fleet';
import { STATION_KEYS as K } from '@sluice/shared/station-keys';
import { DEMO_PROJECTS, demoDeviceSecret } from './demo-sites.ts';
import { hashDeviceSecret } from '../modules/devices/device-credentials.ts';

const SECOND_PUMP: Record<string, string> = {
  [K.liftPump1Run]: K.liftPump2Run,
  [K.liftPump1Fault]: K.liftPump2Fault,
  [K.liftPump1Auto]: K.liftPump2Auto,
};

export async function startDemoFleet(app: FastifyInstance, intervalMs = 5000): Promise<Fleet | undefined> {
  const port = app.live.mqttPort;
  if (!app.live.broker || port === undefined) return undefined;
  const live = DEMO_PROJECTS.flatMap((p) => p.stations.flatMap((s) => s.devices)).filter((d) => d.online);
  if (live.length === 0) return undefined;
  const rows = await app.ctx.db
    .selectFrom('devices')
    .select(['device_sn', 'device_no', 'group_id', 'project_id', 'type_id', 'device_name', 'secret_hash'])
    .where(
      'device_sn',
      'in',
      live.map((d) => d.sn),
    )
    .where('deleted_at', 'is', null)
    .execute();
  const devices: SimDevice[] = [];
  for (const row of rows) {
    // Only devices that still have their demo secret (an operator may have reset it).
    if (row.secret_hash !== hashDeviceSecret(demoDeviceSecret(row.device_sn))) continue;
    const definitions = await app.live.directory.definitionsOf({
      groupId: row.group_id,
      deviceSn: row.device_sn,
      projectId: row.project_id,
      typeId: row.type_id,
      name: row.device_name,
    });
    const keys = [...definitions.byKey.keys()].filter((k) => k !== K.time);
    devices.push({
      deviceSn: row.device_sn,
      secret: demoDeviceSecret(row.device_sn),
      groupId: row.group_id,
      station: String(row.project_id ?? row.device_sn),
      ...(keys.length > 0 ? { keys } : {}),
      ...(/LP2$/i.test(row.device_no) ? { keyMap: SECOND_PUMP } : {}),
    });
  }
  if (devices.length === 0) return undefined;
  return Fleet.start({
    url: `mqtt://127.0.0.1:${String(port)}`,
    devices,
    intervalMs,
    qos: 1,
    topics: app.live.topics.templates,
    // The demo links fault flags to warn codes (DataDefineWarnCode), so faults travel as data.
    errorTopic: false,
    station: { faultRate: 0.01, offsetMinutes: app.live.offsetMinutes },
    log: (message) => {
      app.log.debug({ module: 'demo-fleet' }, message);
    },
  });
}
