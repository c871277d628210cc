/**
 * Devices in the audit trail: what people set on a device (not what it reports: online, last
 * seen), whether it is in the recycle bin, and its secret's hash (masked; a new credential
 * shows as a changed Secret).
 */
import { reusableQuery } from '../../db/reusable-query.ts';
import { ownerColumn } from '../../http/resource.ts';
import type { AuditSubject } from '../audit/audit-trail.ts';
import { tableSubject } from '../audit/table-subject.ts';
import { imageUrl } from '../sites/projects.repository.ts';

const anyDevice = reusableQuery((db, sn: string) => db.selectFrom('devices').selectAll().where('device_sn', '=', sn));
const deviceInGroup = reusableQuery((db, sn: string, groupId: number) =>
  db.selectFrom('devices').selectAll().where('device_sn', '=', sn).where('group_id', '=', groupId),
);

export const deviceSubject: AuditSubject = {
  kind: 'device',
  load: async (ctx, user, id) => {
    const [row] = user ? await deviceInGroup(ctx.db, String(id), user.groupId) : await anyDevice(ctx.db, String(id));
    if (!row) return null;
    return {
      DeviceSn: row.device_sn,
      DeviceNo: row.device_no,
      DeviceName: row.device_name,
      DeviceDescription: row.device_description,
      TypeId: row.type_id,
      ProjectId: row.project_id,
      RegionId: row.region_id,
      AreaId: row.area_id,
      Position: row.position,
      Address: row.address,
      UseTime: row.use_time,
      InRecycleBin: row.deleted_at !== null,
      Secret: row.secret_hash,
    };
  },
  name: (record) => (typeof record.DeviceName === 'string' ? record.DeviceName : undefined),
};

const deviceOwner = ownerColumn('device', 'DeviceSn');

/** A device's SIM card, by the device's serial number (a device has one card). */
export const deviceCardSubject: AuditSubject = {
  kind: 'deviceCard',
  load: async (ctx, user, sn) => (user ? ((await ctx.deviceCards.of(user.groupId, String(sn))) ?? null) : null),
  owner: deviceOwner,
};

export const deviceImageSubject = tableSubject(
  'deviceImage',
  'device_images',
  (r) => ({ Id: r.id, DeviceSn: r.device_sn, ImageName: r.image_name, Rank: r.rank, url: imageUrl(String(r.storage_key)) }),
  ownerColumn('device', 'device_sn'),
);
