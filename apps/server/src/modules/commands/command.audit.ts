/**
 * Commands and the device log in the audit trail. A command's entry holds the data point's value
 * before (the device's last report) and the value sent, under the point's key; a run model or a
 * rotation sent to a device, what was sent.
 */
import type { FastifyRequest } from 'fastify';
import { ownerColumn } from '../../http/resource.ts';
import { noteAudit, plainSubject } from '../audit/audit-trail.ts';
import { tableSubject } from '../audit/table-subject.ts';
import { deviceLogOf } from './commands.service.ts';
import type { DeviceLogRow } from './device-logs.repository.ts';

export const commandSubject = plainSubject('command');

/** The command's entry: its log row, and the point's old and new value. */
export function noteCommand(request: FastifyRequest, log: DeviceLogRow): void {
  noteAudit(request, {
    id: log.id,
    name: log.key_name ? `${log.key_name} (${log.data_key})` : log.data_key,
    before: log.old_value === '' ? null : { [log.data_key]: log.old_value },
    after: { [log.data_key]: log.new_value },
  });
}

export const deviceLogSubject = tableSubject(
  'deviceLog',
  'device_logs',
  (row) => deviceLogOf(row as unknown as DeviceLogRow),
  ownerColumn('device', 'device_sn'),
);
