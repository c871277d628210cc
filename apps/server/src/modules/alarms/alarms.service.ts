/**
 * Alarms from devices: codes on the error topic (the set active now, or one code turning on or
 * off) and data points linked to codes by DataDefineWarnCode (a fault flag other than 0 raises
 * its codes). A code that appears opens a Warn record with its WarnCode's description and type;
 * one that disappears closes it. A device silent past the time-out opens the offline alarm
 * (OFFLINE_WARN_CODE), closed when it is heard again. People add alarms (WarnAdd), handle them
 * with comments (one or many at once) and delete them. Each change is published to consoles.
 */
import { meetsStandard } from '@sluice/shared/statistics';
import { OFFLINE_WARN_CODE, type AlarmSource, type WarnDto, type WarnStatisticsDto } from '@sluice/shared/alarm.schema';
import type { KnownDevice } from '../telemetry/device-directory.ts';
import { latestOf, type IngestMessage } from '../telemetry/ingest-writer.ts';
import type { LiveEvents } from '../../mqtt/live-events.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import { AppError } from '../../http/errors.ts';
import type { ScopeMode } from '../sites/site-scope.ts';
import { MAX_RANGE_DAYS, parseTimeParam } from '../telemetry/history.service.ts';
import { DAY_MS } from '../telemetry/rollup.ts';
import { TypeStandards, type AlarmView, type WarnRow, type AlarmsRepository } from './alarms.repository.ts';

export const toWarnDto = (r: AlarmView): WarnDto => ({
  Id: r.id,
  Code: r.code,
  GroupCode: r.group_code,
  Dt: r.dt,
  DeviceNo: r.device_no,
  DeviceSn: r.device_sn,
  DeviceName: r.device_name,
  ProjectId: r.project_id,
  ProjectName: r.project_name ?? '',
  Description: r.description,
  Comments: r.comments,
  TypeId: r.warn_type_id,
  TypeName: r.type_name ?? '',
  Color: r.color ?? '',
  State: r.state,
  Active: r.active,
  Source: r.source,
  ClearedAt: r.cleared_at,
  HandledAt: r.handled_at,
  HandledBy: r.handled_by_name,
});

/**
 * The range of a list or statistics call: BeginTime and EndTime as the history calls read them
 * (a date is a local day, EndTime's its end). Statistics default to the last 30 days.
 */
export function alarmRange(
  begin: number | string | undefined,
  end: number | string | undefined,
  offsetMinutes: number,
  statistics = false,
  now = Date.now(),
): { from: number | undefined; to: number | undefined } {
  const to = end === undefined ? (statistics ? now : undefined) : parseTimeParam(end, offsetMinutes, true);
  const from = begin === undefined ? (statistics ? (to ?? now) - 30 * DAY_MS : undefined) : parseTimeParam(begin, offsetMinutes);
  if (begin !== undefined && from === undefined) throw new AppError(400, 'rule.valueDate', {}, 'BeginTime');
  if (end !== undefined && to === undefined) throw new AppError(400, 'rule.valueDate', {}, 'EndTime');
  if (from !== undefined && to !== undefined && from >= to) throw new AppError(400, 'history.badRange', {}, 'BeginTime');
  if (statistics && from !== undefined && to !== undefined && to - from > MAX_RANGE_DAYS * DAY_MS)
    throw new AppError(400, 'history.rangeTooLong', { days: MAX_RANGE_DAYS }, 'EndTime');
  return { from, to };
}

const dayOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** How long a device's active alarms are kept in memory between reads. */
const ACTIVE_TTL_MS = 60_000;

/** The device an alarm is opened on. */
type AlarmDevice = Pick<KnownDevice, 'groupId' | 'deviceSn' | 'projectId'>;

interface Cached<T> {
  value: T;
  expires: number;
}

export class AlarmsService {
  private readonly repository: AlarmsRepository;
  private readonly events: LiveEvents;
  private readonly onChange: (device: AlarmDevice, at: number) => Promise<void>;
  private readonly onOpened: (alarms: WarnRow[]) => void;
  private readonly links = new Map<number, Cached<{ codes: Map<string, string[]>; standards: TypeStandards }>>();
  private readonly chains = new Map<string, Promise<unknown>>();
  /**
   * Each device's active alarms from its own messages, as this service last read or changed
   * them: evaluating a data message then needs no query unless a code opens or clears. Kept
   * ACTIVE_TTL_MS at most, dropped when people handle or delete the device's alarms, and when
   * another server instance changed them (`forget`, from the change feed).
   */
  private readonly active = new Map<string, Cached<WarnRow[]>>();
  /** Evaluations of devices' alarm conditions since start, by what was evaluated (metrics). */
  readonly evaluations = { error: 0, data: 0, offline: 0 };

  /** `onOpened` hears of alarms once they are recorded (notifications); it must not make the caller wait. */
  constructor(
    repository: AlarmsRepository,
    events: LiveEvents,
    onChange: (device: AlarmDevice, at: number) => Promise<void>,
    onOpened: (alarms: WarnRow[]) => void = () => undefined,
  ) {
    this.repository = repository;
    this.events = events;
    this.onChange = onChange;
    this.onOpened = onOpened;
  }

  get records(): AlarmsRepository {
    return this.repository;
  }

  /** Counts of the alarms the user reaches opened in [from, to). */
  async statistics(
    user: CurrentUser,
    filter: { from: number; to: number; projectId?: number | undefined },
    offsetMinutes: number,
  ): Promise<WarnStatisticsDto> {
    const s = await this.repository.statistics(user, filter, offsetMinutes);
    return {
      BeginTime: filter.from,
      EndTime: filter.to,
      Total: s.total,
      ByState: { Active: s.active, Cleared: s.total - s.active, Handled: s.handled, Unhandled: s.total - s.handled },
      ByType: s.byType.map((t) => ({ TypeId: t.typeId, TypeName: t.typeName, Color: t.color, Count: t.count })),
      ByProject: s.byProject.map((p) => ({ ProjectId: p.projectId, ProjectName: p.projectName, Count: p.count })),
      ByDay: s.byDay.map((d) => ({ Date: dayOf(d.day), Count: d.count })),
    };
  }

  /** The alarms `ids` the user reaches: all of them, else 404 (or 403 when a write meets a view-only grant); nothing changes otherwise. */
  async reached(user: CurrentUser, ids: number[], mode: ScopeMode = 'read'): Promise<AlarmView[]> {
    const unique = [...new Set(ids)];
    const rows = await this.repository.reachedByIds(user, unique, mode);
    if (rows.length === unique.length) return rows;
    if (mode === 'write' && (await this.repository.reachedByIds(user, unique, 'read')).length === unique.length)
      throw new AppError(403, 'project.viewOnly');
    throw new AppError(404, 'error.notFound');
  }

  /**
   * Handles alarms with one comment (those already handled keep their first handling); the ids
   * handled now. Consoles hear of each so their counts follow.
   */
  async handle(user: CurrentUser, userName: string, ids: number[], comments: string, at = Date.now()): Promise<number[]> {
    const rows = await this.reached(user, ids, 'write');
    const handled = await this.repository.handle(user.groupId, ids, { id: user.id, name: userName }, comments, at);
    for (const r of rows) this.active.delete(r.device_sn);
    const changed = rows.filter((r) => handled.includes(r.id));
    const devices = new Map(
      changed.map((r) => [r.device_sn, { groupId: r.group_id, deviceSn: r.device_sn, projectId: r.project_id }]),
    );
    for (const device of devices.values()) {
      const still = await this.repository.hasActive(device.deviceSn);
      for (const w of changed.filter((r) => r.device_sn === device.deviceSn))
        this.emitWarn(device.groupId, w, w.source === 'manual' ? 0 : (w.active as 0 | 1), still ? 2 : 1, at, 1);
      await this.onChange(device, at);
    }
    return handled;
  }

  /** Deletes alarms the user reaches (every one, or nothing). */
  async remove(user: CurrentUser, ids: number[], at = Date.now()): Promise<void> {
    const rows = await this.reached(user, ids, 'write');
    await this.repository.remove(user.groupId, ids);
    for (const r of rows) this.active.delete(r.device_sn);
    const devices = new Map(
      rows.map((r) => [r.device_sn, { groupId: r.group_id, deviceSn: r.device_sn, projectId: r.project_id }]),
    );
    for (const device of devices.values()) await this.onChange(device, at);
  }

  /** An alarm a person raises on a device (reached for writing) with one of the group's warn codes. */
  async addManual(device: AlarmDevice, code: string, comments: string, at = Date.now()): Promise<WarnRow> {
    const info = (await this.repository.codes(device.groupId, [code])).get(code);
    if (!info) throw new AppError(400, 'warnCode.unknown', { code }, 'Code');
    const [row] = await this.serial(device.deviceSn, () => this.openCodes(device, [code], '', at, 'manual', comments));
    if (!row) throw new Error('the manual alarm was not recorded');
    return row;
  }

  /** The device was heard again: its offline alarm clears. */
  heard(device: AlarmDevice, at = Date.now()): Promise<void> {
    return this.serial(device.deviceSn, async () => {
      await this.closeRows(device, await this.repository.activeFrom(device.groupId, device.deviceSn, 'offline'), at);
    });
  }

  /**
   * Opens the offline alarm of each device offline and silent since before `cutoff` that has
   * none open, dated when its silence passed the time-out (a device silent for days before the
   * server started has an alarm of then, not of now).
   */
  async sweepOffline(cutoff: number, now = Date.now()): Promise<void> {
    const timeout = now - cutoff;
    for (const device of await this.repository.silentWithoutOfflineAlarm(cutoff)) {
      this.evaluations.offline += 1;
      await this.serial(device.deviceSn, async () => {
        if ((await this.repository.activeFrom(device.groupId, device.deviceSn, 'offline')).length > 0) return;
        await this.openCodes(device, [OFFLINE_WARN_CODE], '', Math.min(now, device.lastSeen + timeout), 'offline');
      });
    }
  }

  hasActive(deviceSn: string): Promise<boolean> {
    return this.repository.hasActive(deviceSn);
  }

  /** Reads the device's active alarms again at its next message (another instance changed them). */
  forget(deviceSn: string): void {
    this.active.delete(deviceSn);
  }

  /** The codes now active on the device from the error topic: opens the new, closes the rest (of the error topic). */
  setActive(device: KnownDevice, codes: string[], at: number): Promise<void> {
    this.evaluations.error += 1;
    return this.serial(device.deviceSn, () => this.apply(device, at, (row) => row.data_key === '', new Set(codes), ''));
  }

  /** One code turned on or off. */
  change(device: KnownDevice, code: string, active: boolean, at: number): Promise<void> {
    this.evaluations.error += 1;
    return this.serial(device.deviceSn, async () => {
      const current = await this.fromDevice(device);
      const has = current.some((w) => w.code === code);
      if (active && !has) await this.openCodes(device, [code], '', at);
      if (!active && has)
        await this.closeRows(
          device,
          current.filter((w) => w.code === code),
          at,
        );
    });
  }

  /**
   * Data points linked to codes (DataDefineWarnCode): a key with a standard in the statistics of
   * the device's type (or the nearest type above it: COD_Out ≤ 50, pH 6–9) raises its codes
   * while the value misses the standard; a key no type limits (a fault flag) raises them while
   * its value is not 0; a key other types limit but this device's does not raises nothing.
   */
  /** A stored message's records through fromData, when any of its keys is linked to codes (most messages have none). */
  async fromMessage(device: KnownDevice, message: IngestMessage, now = Date.now()): Promise<void> {
    const { codes } = await this.linksOf(device.groupId, now);
    if (!message.keys.some((key) => codes.has(key))) return;
    await Promise.all(latestOf(message).map((l) => this.fromData(device, l.data, l.ts, now)));
  }

  async fromData(device: KnownDevice, values: Record<string, number | string>, at: number, now = Date.now()): Promise<void> {
    const { codes, standards } = await this.linksOf(device.groupId, now);
    const touched = Object.keys(values).filter((k) => codes.has(k));
    if (touched.length === 0) return;
    this.evaluations.data += touched.length;
    await this.serial(device.deviceSn, async () => {
      for (const key of touched) {
        const value = values[key];
        const standard = standards.of(device.typeId, key);
        const number = Number(value);
        const raised =
          standard !== undefined
            ? Number.isFinite(number) && !meetsStandard(number, standard)
            : !standards.isLimited(key) && number !== 0 && value !== '';
        await this.apply(device, at, (row) => row.data_key === key, new Set(raised ? codes.get(key) : []), key);
      }
    });
  }

  private async apply(
    device: KnownDevice,
    at: number,
    owned: (row: WarnRow) => boolean,
    wanted: Set<string>,
    dataKey: string,
  ): Promise<void> {
    const current = (await this.fromDevice(device)).filter(owned);
    const have = new Set(current.map((w) => w.code));
    const toOpen = [...wanted].filter((c) => !have.has(c));
    const toClose = current.filter((w) => !wanted.has(w.code));
    if (toOpen.length === 0 && toClose.length === 0) return;
    await this.openCodes(device, toOpen, dataKey, at);
    await this.closeRows(device, toClose, at);
  }

  /** The device's active alarms its own messages opened (not the offline or manual ones). */
  private async fromDevice(device: AlarmDevice, now = Date.now()): Promise<WarnRow[]> {
    const cached = this.active.get(device.deviceSn);
    if (cached && cached.expires > now) return cached.value;
    const value = (await this.repository.active(device.groupId, device.deviceSn)).filter((w) => w.source === 'device');
    this.active.set(device.deviceSn, { value, expires: now + ACTIVE_TTL_MS });
    return value;
  }

  /** Keeps the cached active alarms of the device in step with what was just opened or closed. */
  private remember(deviceSn: string, opened: WarnRow[], closedIds: number[]): void {
    const cached = this.active.get(deviceSn);
    if (!cached) return;
    const closed = new Set(closedIds);
    cached.value = [...cached.value.filter((w) => !closed.has(w.id)), ...opened.filter((w) => w.source === 'device')];
  }

  private async openCodes(
    device: AlarmDevice,
    codes: string[],
    dataKey: string,
    at: number,
    source: AlarmSource = 'device',
    comments = '',
  ): Promise<WarnRow[]> {
    if (codes.length === 0) return [];
    const info = await this.repository.codes(device.groupId, codes);
    const opened = await this.repository.open(
      codes.map((code) => ({
        group_id: device.groupId,
        device_sn: device.deviceSn,
        project_id: device.projectId,
        code,
        data_key: dataKey,
        warn_type_id: info.get(code)?.warnTypeId ?? null,
        description: info.get(code)?.description ?? (code === OFFLINE_WARN_CODE ? 'Device offline' : ''),
        dt: at,
        source,
        comments,
      })),
    );
    this.remember(device.deviceSn, opened, []);
    for (const w of opened) this.emitWarn(device.groupId, w, 1, 2, at, 0);
    this.onOpened(opened);
    await this.onChange(device, at);
    return opened;
  }

  private async closeRows(device: AlarmDevice, rows: WarnRow[], at: number): Promise<void> {
    if (rows.length === 0) return;
    await this.repository.close(
      device.groupId,
      rows.map((w) => w.id),
      at,
    );
    this.remember(
      device.deviceSn,
      [],
      rows.map((w) => w.id),
    );
    const still = await this.repository.hasActive(device.deviceSn);
    for (const w of rows) this.emitWarn(device.groupId, w, 0, still ? 2 : 1, at, w.state === 1 ? 1 : 0);
    await this.onChange(device, at);
  }

  private emitWarn(groupId: number, w: WarnRow, active: 0 | 1, state: 1 | 2, at: number, handled: 0 | 1): void {
    this.events.emit(groupId, {
      Type: 'warn',
      DeviceSn: w.device_sn,
      Id: w.id,
      Code: w.code,
      Description: w.description,
      Active: active,
      State: state,
      Handled: handled,
      Time: at,
    });
  }

  private async linksOf(groupId: number, now: number): Promise<{ codes: Map<string, string[]>; standards: TypeStandards }> {
    const cached = this.links.get(groupId);
    if (cached && cached.expires > now) return cached.value;
    const codes = await this.repository.links(groupId);
    const value = { codes, standards: codes.size > 0 ? await this.repository.standards(groupId) : TypeStandards.none };
    this.links.set(groupId, { value, expires: now + 60_000 });
    return value;
  }

  private serial<T>(deviceSn: string, work: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(deviceSn) ?? Promise.resolve();
    const next = previous.then(work, work);
    this.chains.set(deviceSn, next);
    void next
      .finally(() => {
        if (this.chains.get(deviceSn) === next) this.chains.delete(deviceSn);
      })
      .catch(() => undefined);
    return next;
  }
}
