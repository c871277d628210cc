/**
 * Field records in the audit trail, as their calls show them: water-quality results and repairs
 * (belonging to their device, else their station), rounds, checklists and standards (their
 * station), photos (their record).
 */
import type { AuditKind } from '@sluice/shared/audit.schema';
import type { FieldRecordsService } from './field-records.service.ts';
import type { AuditRef, AuditSubject } from '../audit/audit-trail.ts';
import { pascalRow, tableSubject } from '../audit/table-subject.ts';
import { ownerColumn } from '../../http/resource.ts';

const only = <T>(rows: T[]): T | null => rows[0] ?? null;

/** A device's record belongs to the device, another to its station. */
const station = ownerColumn('project', 'ProjectId');
const deviceOrStation = (record: Record<string, unknown>): AuditRef | undefined =>
  ownerColumn('device', 'DeviceSn')(record) ?? station(record);

export function fieldRecordSubjects(records: FieldRecordsService) {
  const repo = records.repository;
  return {
    input: {
      kind: 'deviceInput',
      load: async (_ctx, user, id) => {
        const row = user ? await repo.input(user, Number(id)) : undefined;
        return row && user ? only(await records.inputDtos(user.groupId, [row])) : null;
      },
      owner: deviceOrStation,
    } satisfies AuditSubject,
    repair: {
      kind: 'repair',
      load: async (_ctx, user, id) => {
        const row = user ? await repo.repair(user, Number(id)) : undefined;
        return row && user ? only(await records.repairDtos(user.groupId, [row])) : null;
      },
      owner: deviceOrStation,
    } satisfies AuditSubject,
    poll: {
      kind: 'poll',
      load: async (_ctx, user, id) => {
        const row = user ? await repo.poll(user, Number(id)) : undefined;
        return row && user ? only(await records.pollDtos(user.groupId, [row])) : null;
      },
      owner: station,
    } satisfies AuditSubject,
    /** By the station's id. */
    pollPlan: {
      kind: 'pollPlan',
      load: async (_ctx, user, projectId) => {
        const plan = user ? await repo.pollPlan(user.groupId, Number(projectId)) : undefined;
        return plan
          ? { ProjectId: Number(projectId), Items: JSON.parse(plan.items) as unknown, IntervalDays: plan.interval_days }
          : null;
      },
      owner: station,
    } satisfies AuditSubject,
    /** By the station's id. */
    stationStandard: {
      kind: 'stationStandard',
      load: async (_ctx, user, projectId) => (user ? records.stationStandard(user.groupId, Number(projectId)) : null),
      owner: station,
    } satisfies AuditSubject,
  };
}

const RECORD_KIND: Record<string, AuditKind> = { input: 'deviceInput', repair: 'repair', poll: 'poll' };

/** A photo belongs to the record it shows. */
export const recordPhotoSubject = tableSubject('recordPhoto', 'record_photos', pascalRow, (row) => {
  const kind = RECORD_KIND[String(row.record_kind)];
  return kind && typeof row.record_id === 'number' ? { kind, id: row.record_id } : undefined;
});
