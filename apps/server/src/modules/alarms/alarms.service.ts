/**
 * Alarms from devices: codes on the error topic (the set active now, or one code turning on or
 * off) and data points linked to codes by DataDefineWarnCode (a fault flag other than 0 raises
 * its codes). A code that appears opens a Warn record with its WarnCode's description and type;
 * one that disappears closes it. Each change is published to consoles.
 */
import { meetsStandard } from '@sluice/shared/statistics';
import type { KnownDevice } from '../telemetry/device-directory.ts';
import type { LiveEvents } from '../../mqtt/live-events.ts';
import { TypeStandards, type WarnRow, type AlarmsRepository } from './alarms.repository.ts';

interface Cached<T> {
  value: T;
  expires: number;
}

export class AlarmsService {
  private readonly repository: AlarmsRepository;
  private readonly events: LiveEvents;
  private readonly onChange: (device: KnownDevice, at: number) => Promise<void>;
  private readonly links = new Map<number, Cached<{ codes: Map<string, string[]>; standards: TypeStandards }>>();
  private readonly chains = new Map<string, Promise<unknown>>();

  constructor(repository: AlarmsRepository, events: LiveEvents, onChange: (device: KnownDevice, at: number) => Promise<void>) {
    this.repository = repository;
    this.events = events;
    this.onChange = onChange;
  }

  hasActive(deviceSn: string): Promise<boolean> {
    return this.repository.hasActive(deviceSn);
  }

  /** The codes now active on the device from the error topic: opens the new, closes the rest (of the error topic). */
  setActive(device: KnownDevice, codes: string[], at: number): Promise<void> {
    return this.serial(device.deviceSn, () => this.apply(device, at, (row) => row.data_key === '', new Set(codes), ''));
  }

  /** One code turned on or off. */
  change(device: KnownDevice, code: string, active: boolean, at: number): Promise<void> {
    return this.serial(device.deviceSn, async () => {
      const current = await this.repository.active(device.groupId, device.deviceSn);
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
  async fromData(device: KnownDevice, values: Record<string, number | string>, at: number, now = Date.now()): Promise<void> {
    const { codes, standards } = await this.linksOf(device.groupId, now);
    const touched = Object.keys(values).filter((k) => codes.has(k));
    if (touched.length === 0) return;
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
    const current = (await this.repository.active(device.groupId, device.deviceSn)).filter(owned);
    const have = new Set(current.map((w) => w.code));
    const toOpen = [...wanted].filter((c) => !have.has(c));
    const toClose = current.filter((w) => !wanted.has(w.code));
    if (toOpen.length === 0 && toClose.length === 0) return;
    await this.openCodes(device, toOpen, dataKey, at);
    await this.closeRows(device, toClose, at);
  }

  private async openCodes(device: KnownDevice, codes: string[], dataKey: string, at: number): Promise<void> {
    if (codes.length === 0) return;
    const info = await this.repository.codes(device.groupId, codes);
    const opened = await this.repository.open(
      codes.map((code) => ({
        group_id: device.groupId,
        device_sn: device.deviceSn,
        project_id: device.projectId,
        code,
        data_key: dataKey,
        warn_type_id: info.get(code)?.warnTypeId ?? null,
        description: info.get(code)?.description ?? '',
        dt: at,
      })),
    );
    for (const w of opened) {
      this.events.emit(device.groupId, {
        Type: 'warn',
        DeviceSn: device.deviceSn,
        Id: w.id,
        Code: w.code,
        Description: w.description,
        Active: 1,
        State: 2,
        Time: at,
      });
    }
    await this.onChange(device, at);
  }

  private async closeRows(device: KnownDevice, rows: WarnRow[], at: number): Promise<void> {
    if (rows.length === 0) return;
    await this.repository.close(
      device.groupId,
      rows.map((w) => w.id),
      at,
    );
    const still = await this.repository.hasActive(device.deviceSn);
    for (const w of rows) {
      this.events.emit(device.groupId, {
        Type: 'warn',
        DeviceSn: device.deviceSn,
        Id: w.id,
        Code: w.code,
        Description: w.description,
        Active: 0,
        State: still ? 2 : 1,
        Time: at,
      });
    }
    await this.onChange(device, at);
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
