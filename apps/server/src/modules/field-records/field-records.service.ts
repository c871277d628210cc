/**
 * Field records' rules: a result judged against its station's discharge standard, the repair
 * workflow (reported → assigned → in progress → done → verified, or rejected back), repairs made
 * from alarms, and inspection rounds against their schedule.
 */
import {
  builtInLimits,
  CONCENTRATION_PARAMS,
  judge,
  MANAGER_ACTIONS,
  QUALITY_PARAMS,
  REPAIR_FLOW,
  type DeviceInputDto,
  type PollDto,
  type PollDueDto,
  type RecordKind,
  type RepairAction,
  type RepairDto,
  type RepairState,
  type StandardLimits,
  type StationStandardDto,
} from '@sluice/shared/field-records.schema';
import type { CurrentUser } from '../../auth/current-user.ts';
import { AppError } from '../../http/errors.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import type { FieldRecordsRepository, InputRow, PollRow, RepairRow, StandardRow } from './field-records.repository.ts';

const DAY = 86_400_000;

const limitsOfRow = (r: StandardRow): StandardLimits => ({
  COD: r.cod,
  BOD5: r.bod5,
  NH3_N: r.nh3_n,
  NH3_N_Cold: r.nh3_n_cold,
  TN: r.tn,
  TP: r.tp,
  SS: r.ss,
  PH_Min: r.ph_min,
  PH_Max: r.ph_max,
  FC: r.fc,
});

/** Built-in names as the console and the report show them. */
export function standardName(ref: string, custom?: StandardRow): string {
  if (ref.startsWith('GB18918-')) return `GB 18918-2002 ${ref.slice('GB18918-'.length)}`;
  return custom?.name ?? '';
}

/** The state and the move of a refused transition, as words of the caller's language (not their codes). */
export const transitionWords = (state: RepairState, action: RepairAction) => ({
  state: { ref: `records.repairState.${state}` },
  action: { ref: `records.repairAction.${action}` },
});

export interface ResolvedStandard {
  ref: string;
  name: string;
  limits: StandardLimits | null;
  inherited: boolean;
}

/** Input values per parameter: [in, out, unit]. */
export function valuesOf(row: InputRow): Record<string, { in: number | null; out: number | null; unit: string }> {
  const r = row as unknown as Record<string, number | string | null>;
  return Object.fromEntries(
    QUALITY_PARAMS.map((p) => {
      const col = p.toLowerCase();
      const unit = (CONCENTRATION_PARAMS as readonly string[]).includes(p) ? String(r[`${col}_unit`] ?? 'mg/L') : '';
      return [p, { in: r[`${col}_in`] as number | null, out: r[`${col}_out`] as number | null, unit }];
    }),
  );
}

export class FieldRecordsService {
  readonly repository: FieldRecordsRepository;
  private readonly storage: FileStorage;
  constructor(deps: { repository: FieldRecordsRepository; storage: FileStorage }) {
    this.repository = deps.repository;
    this.storage = deps.storage;
  }

  /** The standards the projects hold, resolved to their limits. */
  async standards(groupId: number, projectIds: number[]): Promise<Map<number, ResolvedStandard>> {
    const held = await this.repository.standardsOf(groupId, projectIds);
    const customIds = [...held.values()]
      .map((h) => /^custom:(\d+)$/.exec(h.standard)?.[1])
      .filter((id): id is string => id !== undefined)
      .map(Number);
    const custom = await this.repository.customStandards(groupId, customIds);
    const resolved = new Map<number, ResolvedStandard>();
    for (const [projectId, h] of held) {
      const row = custom.get(Number(/^custom:(\d+)$/.exec(h.standard)?.[1] ?? 0));
      const limits = builtInLimits(h.standard) ?? (row ? limitsOfRow(row) : null);
      resolved.set(projectId, {
        ref: limits ? h.standard : '',
        name: standardName(h.standard, row),
        limits,
        inherited: h.inherited,
      });
    }
    return resolved;
  }

  async stationStandard(groupId: number, projectId: number): Promise<StationStandardDto> {
    const s = (await this.standards(groupId, [projectId])).get(projectId);
    return {
      ProjectId: projectId,
      Standard: s?.ref ?? '',
      Inherited: s?.inherited ?? false,
      Name: s?.name ?? '',
      Limits: s?.limits ?? null,
    };
  }

  /** A standard the group may give a station: a built-in class or one of its own tables. */
  async checkStandard(groupId: number, ref: string): Promise<void> {
    if (ref === '' || builtInLimits(ref)) return;
    const id = Number(/^custom:(\d+)$/.exec(ref)?.[1] ?? 0);
    if (!(await this.repository.customStandards(groupId, [id])).has(id))
      throw new AppError(400, 'records.badStandard', {}, 'Standard');
  }

  async refuseRemovingUsedStandard(groupId: number, standard: { Id: number; Name: string }): Promise<void> {
    const count = await this.repository.standardUse(groupId, standard.Id);
    if (count > 0) throw new AppError(409, 'records.standardInUse', { name: standard.Name, count });
  }

  // Water-quality results ---------------------------------------------------------------

  async inputDtos(groupId: number, rows: InputRow[]): Promise<DeviceInputDto[]> {
    const standards = await this.standards(
      groupId,
      rows.map((r) => r.project_id).filter((id): id is number => id !== null),
    );
    const photos = await this.repository.photosOf(
      groupId,
      'input',
      rows.map((r) => r.id),
    );
    return rows.map((r) => {
      const standard = r.project_id === null ? undefined : standards.get(r.project_id);
      const values = valuesOf(r);
      const compliance: Record<string, boolean | null> = {};
      for (const p of QUALITY_PARAMS) {
        const v = values[p];
        compliance[p] = standard?.limits
          ? judge(p, v?.out ?? null, standard.limits, { unit: v?.unit ?? null, waterTemp: r.water_temp })
          : null;
      }
      const judged = Object.values(compliance).filter((c): c is boolean => c !== null);
      return {
        Id: r.id,
        DeviceSn: r.device_sn,
        DeviceName: r.device_name ?? '',
        ProjectId: r.project_id,
        ProjectName: r.project_name ?? '',
        Dt: r.dt,
        WaterInflow: r.water_inflow,
        WaterTemp: r.water_temp,
        COD_In: r.cod_in,
        COD_Out: r.cod_out,
        COD_Unit: r.cod_unit,
        BOD5_In: r.bod5_in,
        BOD5_Out: r.bod5_out,
        BOD5_Unit: r.bod5_unit,
        NH3_N_In: r.nh3_n_in,
        NH3_N_Out: r.nh3_n_out,
        NH3_N_Unit: r.nh3_n_unit,
        TN_In: r.tn_in,
        TN_Out: r.tn_out,
        TN_Unit: r.tn_unit,
        TP_In: r.tp_in,
        TP_Out: r.tp_out,
        TP_Unit: r.tp_unit,
        SS_In: r.ss_in,
        SS_Out: r.ss_out,
        SS_Unit: r.ss_unit,
        PH_In: r.ph_in,
        PH_Out: r.ph_out,
        FC_In: r.fc_in,
        FC_Out: r.fc_out,
        Sampler: r.sampler,
        Laboratory: r.laboratory,
        Remark: r.remark,
        CreatedBy: r.created_by_name,
        Standard: standard?.name ?? '',
        Compliance: compliance,
        Compliant: judged.length === 0 ? null : judged.every(Boolean),
        Photos: photos.get(r.id) ?? [],
      };
    });
  }

  async removeInput(user: CurrentUser, id: number): Promise<void> {
    await this.repository.removeInput(user.groupId, id);
    await this.removePhotos(user.groupId, 'input', id);
  }

  // Repairs -------------------------------------------------------------------------------

  async repairDtos(groupId: number, rows: RepairRow[], now = Date.now()): Promise<RepairDto[]> {
    const photos = await this.repository.photosOf(
      groupId,
      'repair',
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({
      Id: r.id,
      ProjectId: r.project_id,
      ProjectName: r.project_name ?? '',
      DeviceSn: r.device_sn,
      DeviceName: r.device_name ?? '',
      RepairTitle: r.repair_title,
      RepairContent: r.repair_content,
      FaultCode: r.fault_code,
      State: r.state as RepairState,
      AssigneeId: r.assignee_id,
      AssigneeName: r.assignee_name,
      DueAt: r.due_at === null ? null : r.due_at,
      Parts: r.parts,
      Cost: r.cost,
      Resolution: r.resolution,
      RejectNote: r.reject_note,
      WarnId: r.warn_id,
      MaintenanceId: r.maintenance_id,
      ReportedBy: r.reported_by_name,
      CreatedAt: r.created_at,
      AssignedAt: r.assigned_at === null ? null : r.assigned_at,
      StartedAt: r.started_at === null ? null : r.started_at,
      DoneAt: r.done_at === null ? null : r.done_at,
      VerifiedAt: r.verified_at === null ? null : r.verified_at,
      Overdue: r.due_at !== null && r.due_at < now && r.state !== 'done' && r.state !== 'verified',
      Photos: photos.get(r.id) ?? [],
    }));
  }

  /** The assignee, checked to be a principal of the station (or its project). */
  async assignee(groupId: number, projectId: number, principalId: number): Promise<{ id: number; name: string }> {
    const found = await this.repository.principalOf(groupId, projectId, principalId);
    if (!found) throw new AppError(400, 'records.notPrincipal', {}, 'AssigneeId');
    return found;
  }

  /**
   * Moves a repair on by an action. Field staff (records.enter) start and finish; assigning,
   * verifying and rejecting need records.manage (checked by the caller through `mayManage`).
   */
  async transition(
    user: CurrentUser,
    repair: RepairRow,
    request: { Action: RepairAction; AssigneeId?: number | undefined; Note?: string | undefined },
    mayManage: boolean,
    now = Date.now(),
  ): Promise<void> {
    const flow = REPAIR_FLOW[request.Action];
    if (MANAGER_ACTIONS.includes(request.Action) && !mayManage) throw new AppError(403, 'auth.forbidden');
    const state = repair.state as RepairState;
    const refused = () => new AppError(409, 'records.badTransition', transitionWords(state, request.Action), 'Action');
    if (!flow.from.includes(state)) throw refused();
    const change: Parameters<FieldRecordsRepository['updateRepair']>[2] = { state: flow.to, updated_at: now };
    const note = request.Note ?? '';
    switch (request.Action) {
      case 'assign': {
        if (request.AssigneeId === undefined) throw new AppError(400, 'records.assigneeRequired', {}, 'AssigneeId');
        const who = await this.assignee(user.groupId, repair.project_id, request.AssigneeId);
        Object.assign(change, { assignee_id: who.id, assignee_name: who.name, assigned_at: now });
        break;
      }
      case 'start':
        change.started_at = now;
        break;
      case 'finish':
        Object.assign(change, { done_at: now, ...(note ? { resolution: note } : {}) });
        break;
      case 'verify':
        change.verified_at = now;
        break;
      case 'reject':
        Object.assign(change, { reject_note: note, done_at: null, started_at: null });
        break;
    }
    if (!(await this.repository.updateRepair(user.groupId, repair.id, change, state))) throw refused();
  }

  async removeRepair(user: CurrentUser, id: number): Promise<void> {
    await this.repository.removeRepair(user.groupId, id);
    await this.removePhotos(user.groupId, 'repair', id);
  }

  // Inspections ---------------------------------------------------------------------------

  async pollDtos(groupId: number, rows: PollRow[]): Promise<PollDto[]> {
    const photos = await this.repository.photosOf(
      groupId,
      'poll',
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({
      Id: r.id,
      ProjectId: r.project_id,
      ProjectName: r.project_name ?? '',
      PollTitle: r.poll_title,
      PollContent: r.poll_content,
      Results: JSON.parse(r.results) as PollDto['Results'],
      Issues: r.issues,
      Chemicals: JSON.parse(r.chemicals) as PollDto['Chemicals'],
      ArrivedAt: r.arrived_at,
      LeftAt: r.left_at === null ? null : r.left_at,
      Inspector: r.inspector,
      CreatedAt: r.created_at,
      Photos: photos.get(r.id) ?? [],
    }));
  }

  /** Stations with a round schedule: the next round is due `interval` days after the last (or after the station was made). */
  async pollsDue(user: CurrentUser, projectId?: number, now = Date.now()): Promise<PollDueDto[]> {
    const rows = await this.repository.scheduledRounds(user, projectId);
    return rows.map((r) => {
      const since = r.last_at ?? r.created_at;
      const due = since + r.interval_days * DAY;
      return {
        ProjectId: r.project_id,
        ProjectName: r.project_name,
        IntervalDays: r.interval_days,
        LastAt: r.last_at,
        DueAt: due,
        Overdue: due < now,
      };
    });
  }

  async removePoll(user: CurrentUser, id: number): Promise<void> {
    await this.repository.removePoll(user.groupId, id);
    await this.removePhotos(user.groupId, 'poll', id);
  }

  private async removePhotos(groupId: number, kind: RecordKind, id: number): Promise<void> {
    for (const key of await this.repository.removePhotosOf(groupId, kind, id)) await this.storage.remove(key);
  }
}
