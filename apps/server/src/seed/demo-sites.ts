/**
 * Demo sites for `npm start` with DEMO on: a client, two neighbouring projects in Anji County,
 * Zhejiang (青山镇 and 河口村: Qingshan Town, Hekou Village), six stations and their equipment.
 * Names are in one language, Chinese, as an operator there would type them.
 * Positions are 'lng,lat' in GCJ-02, as Chinese map tiles use. Device serial numbers are fixed
 * so that the simulator can speak for them; their secrets are demoDeviceSecret(sn).
 */
import type { Db } from '../db/database.ts';
import type { CreatedTenant } from '../modules/groups/tenancy.service.ts';
import { hashDeviceSecret } from '../modules/devices/device-credentials.ts';
import type { DeviceEvents } from '../modules/devices/device-events.ts';
import { newDeviceRow } from '../modules/devices/devices.repository.ts';
import { PROJECT_TYPE } from '@sluice/shared/project.schema';

/** Demo devices only: a predictable secret, so that the simulator can connect. */
export const demoDeviceSecret = (sn: string) => `demo-${sn}-secret`;

const ANJI = '330523';

interface DemoDevice {
  sn: string;
  no: string;
  name: string;
  description: string;
  online: boolean;
}

interface DemoStation {
  name: string;
  position: string;
  address: string;
  devices: DemoDevice[];
}

interface DemoProject {
  name: string;
  position: string;
  address: string;
  stations: DemoStation[];
}

const device = (sn: number, no: string, name: string, description: string, online: boolean): DemoDevice => ({
  sn: `SL${String(sn).padStart(10, '0')}`,
  no,
  name,
  description,
  online,
});

export const DEMO_PROJECTS: DemoProject[] = [
  {
    name: '青山镇',
    position: '119.6201,30.6083',
    address: '浙江省湖州市安吉县青山镇',
    stations: [
      {
        name: '青山一站',
        position: '119.6132,30.6147',
        address: '青山镇青山村村委会东侧',
        devices: [
          device(101, 'QS1-LP1', '1# 提升泵', '调节池提升泵，一用一备', true),
          device(102, 'QS1-LP2', '2# 提升泵', '调节池提升泵，备用', true),
          device(103, 'QS1-BL1', '曝气风机', '好氧池鼓风机，定时运行', true),
          device(104, 'QS1-AN1', '出水在线监测仪', 'COD、氨氮在线监测', true),
        ],
      },
      {
        name: '青山二站',
        position: '119.6251,30.6062',
        address: '青山镇南山自然村',
        devices: [
          device(201, 'QS2-LP1', '提升泵', '调节池提升泵', true),
          device(202, 'QS2-BL1', '曝气风机', '接触氧化池风机', false),
          device(203, 'QS2-DP1', 'PAC 加药泵', '除磷加药', true),
        ],
      },
      {
        name: '竹林村站',
        position: '119.6078,30.5989',
        address: '青山镇竹林村文化礼堂北',
        devices: [
          device(301, 'ZL-LP1', '提升泵', '调节池提升泵', false),
          device(302, 'ZL-BL1', '曝气风机', 'A/O 好氧段风机', false),
        ],
      },
      {
        name: '溪口站',
        position: '119.6315,30.6188',
        address: '青山镇溪口村',
        devices: [
          device(401, 'XK-LP1', '提升泵', '调节池提升泵', true),
          device(402, 'XK-BL1', '曝气风机', 'MBR 膜池风机', true),
          device(403, 'XK-FM1', '出水流量计', '电磁流量计', true),
        ],
      },
    ],
  },
  {
    name: '河口村',
    position: '119.6688,30.5842',
    address: '浙江省湖州市安吉县河口村',
    stations: [
      {
        name: '河口村站',
        position: '119.6652,30.5813',
        address: '河口村村口污水处理终端',
        devices: [
          device(501, 'HK-LP1', '1# 提升泵', '调节池提升泵', true),
          device(502, 'HK-LP2', '2# 提升泵', '调节池提升泵，备用', false),
          device(503, 'HK-BL1', '曝气风机', '好氧池风机', true),
          device(504, 'HK-AN1', '出水在线监测仪', '总磷、总氮在线监测', true),
        ],
      },
      {
        name: '上坞站',
        position: '119.6724,30.5871',
        address: '河口村上坞自然村',
        devices: [device(601, 'SW-LP1', '提升泵', '调节池提升泵', false), device(602, 'SW-DP1', 'PAC 加药泵', '除磷加药', false)],
      },
    ],
  },
];

/** The equipment code of a demo device number: QS1-LP1 → LP. */
export function equipmentCode(deviceNo: string): string {
  return /-([A-Z]+)\d*$/.exec(deviceNo)?.[1] ?? '';
}

/**
 * Seeds the demo sites; `typeIds` gives each device its equipment type by the code in its
 * number (without it, devices have no type). Each device is `created` as the devices service
 * would announce it, so it starts from its type's standard template.
 */
export async function seedDemoSites(
  db: Db,
  events: DeviceEvents,
  tenant: CreatedTenant,
  typeIds: ReadonlyMap<string, number> = new Map(),
  now = Date.now(),
): Promise<void> {
  const groupId = tenant.groupId;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('regions')
      .values({
        group_id: groupId,
        name: '安吉南部片区',
        radius: JSON.stringify({ type: 'circle', center: [119.64, 30.6], radius: 8000 }),
        region_code: 'AJ-S',
        point: '119.64,30.6',
      })
      .execute();
    const region = await trx.selectFrom('regions').select('id').where('group_id', '=', groupId).executeTakeFirstOrThrow();
    const client = await trx
      .insertInto('clients')
      .values({
        group_id: groupId,
        client_name: '安吉县水务有限公司',
        client_sn: 'AJW',
        linkman: '王经理',
        telephone: '0572-5123456',
        mobile: '13905721234',
        address: '浙江省湖州市安吉县递铺街道',
        description: '农村生活污水处理运维（演示）',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const node = async (name: string, type: number, parentId: number, position: string, address: string) =>
      (
        await trx
          .insertInto('projects')
          .values({
            group_id: groupId,
            name,
            project_type: type,
            parent_id: parentId,
            client_id: client.id,
            region_id: region.id,
            area_id: ANJI,
            address,
            position,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const clientNode = await node('安吉县水务', PROJECT_TYPE.client, 0, '119.6800,30.6380', '浙江省湖州市安吉县递铺街道');
    for (const project of DEMO_PROJECTS) {
      const projectId = await node(project.name, PROJECT_TYPE.project, clientNode, project.position, project.address);
      await trx
        .insertInto('role_projects')
        .values({ role_id: tenant.operatorRoleId, project_id: projectId, operate: 0 })
        .execute();
      for (const station of project.stations) {
        const stationId = await node(station.name, PROJECT_TYPE.station, projectId, station.position, station.address);
        await trx
          .insertInto('principals')
          .values({ group_id: groupId, parent_ref: `project:${String(stationId)}`, name: '张工', phone: '13800138000' })
          .execute();
        for (const d of station.devices) {
          const typeId = typeIds.get(equipmentCode(d.no)) ?? null;
          await trx
            .insertInto('devices')
            .values(
              newDeviceRow(
                {
                  group_id: groupId,
                  device_sn: d.sn,
                  device_no: d.no,
                  device_name: d.name,
                  device_description: d.description,
                  type_id: typeId,
                  project_id: stationId,
                  region_id: region.id,
                  area_id: ANJI,
                  address: station.address,
                  online: d.online ? 1 : 0,
                  last_seen: d.online ? now : now - 3 * 86_400_000,
                  secret_hash: hashDeviceSecret(demoDeviceSecret(d.sn)),
                },
                now,
              ),
            )
            .execute();
          await events.emit('created', trx, { groupId, deviceSn: d.sn, typeId });
        }
      }
    }
  });
}
