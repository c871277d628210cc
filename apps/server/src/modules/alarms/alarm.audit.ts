/** Alarms in the audit trail: as the alarm calls show them, belonging to their device. */
import type { AuditSubject } from '../audit/audit-trail.ts';
import { ownerColumn } from '../../http/resource.ts';
import { toWarnDto, type AlarmsService } from './alarms.service.ts';

export const alarmSubject = (alarms: () => AlarmsService): AuditSubject => ({
  kind: 'alarm',
  load: async (_ctx, user, id) => {
    if (!user) return null;
    const [row] = await alarms().reached(user, [Number(id)]);
    return row ? toWarnDto(row) : null;
  },
  owner: ownerColumn('device', 'DeviceSn'),
  name: (record) =>
    typeof record.Code === 'string'
      ? [record.Code, typeof record.DeviceName === 'string' ? record.DeviceName : ''].join(' ').trim()
      : undefined,
});
