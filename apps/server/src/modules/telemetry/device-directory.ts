/**
 * What the pipeline needs to know of a device, cached for a short while: its group, project
 * and type, the hash of its MQTT secret (so that a connect storm after a restart costs one
 * query per device, not two), and its data definitions (the device's own data points when it
 * has any, else its type's). A device in the recycle bin is unknown here, so the broker
 * refuses it. A change to a device (a reset credential too) makes it forgotten at once.
 *
 * Lookups asked for together (a connect storm, a fleet's entries expiring) are made together,
 * a query for up to 500 devices (batch-loader.ts); on PostgreSQL ingestion gives the directory a
 * small pool of its own, so that console calls never queue behind a fleet's lookups.
 */
import type { Db } from '../../db/database.ts';
import type { PointDefinition } from './data-validation.ts';
import { BatchLoader } from './batch-loader.ts';

export interface KnownDevice {
  groupId: number;
  deviceSn: string;
  projectId: number | null;
  typeId: number | null;
  name: string;
}

export interface DeviceDefinitions {
  /** Definitions by DataKey. Empty when neither the device nor its type defines any. */
  byKey: Map<string, PointDefinition & { key: string }>;
  /** Keys a device sends under another name (a type data point's OutKey) → DataKey. */
  aliases: Map<string, string>;
}

interface Entry<T> {
  value: T;
  expires: number;
}

export class DeviceDirectory {
  private readonly db: Db;
  private readonly ttlMs: number;
  private readonly devices = new Map<string, Entry<KnownDevice | undefined>>();
  /** The SHA-256 of each cached device's secret, loaded with it. */
  private readonly secretHashes = new Map<string, string>();
  private readonly definitions = new Map<string, Entry<DeviceDefinitions>>();
  private readonly deviceRows = new BatchLoader<string, Credential | undefined>((sns) => this.loadDevices(sns), undefined);
  private readonly definitionRows = new BatchLoader<KnownDevice, DeviceDefinitions>(
    (devices) => this.loadDefinitionsOf(devices),
    { byKey: new Map(), aliases: new Map() },
  );

  constructor(db: Db, ttlMs = 60_000) {
    this.db = db;
    this.ttlMs = ttlMs;
  }

  /** Drops what is cached of a device (after it changed, moved or was deleted). */
  forget(deviceSn?: string): void {
    if (deviceSn === undefined) {
      this.devices.clear();
      this.secretHashes.clear();
      this.definitions.clear();
    } else {
      this.devices.delete(deviceSn);
      this.secretHashes.delete(deviceSn);
      this.definitions.delete(deviceSn);
    }
  }

  async device(deviceSn: string, now = Date.now()): Promise<KnownDevice | undefined> {
    const cached = this.devices.get(deviceSn);
    if (cached && cached.expires > now) return cached.value;
    const found = await this.deviceRows.get(deviceSn);
    this.devices.set(deviceSn, { value: found?.device, expires: now + this.ttlMs });
    if (found) this.secretHashes.set(deviceSn, found.secretHash);
    else this.secretHashes.delete(deviceSn);
    return found?.device;
  }

  /** A live device and the SHA-256 of its MQTT secret, for the broker's authentication. */
  async credential(deviceSn: string, now = Date.now()): Promise<Credential | undefined> {
    const device = await this.device(deviceSn, now);
    const secretHash = this.secretHashes.get(deviceSn);
    return device && secretHash !== undefined ? { device, secretHash } : undefined;
  }

  async definitionsOf(device: KnownDevice, now = Date.now()): Promise<DeviceDefinitions> {
    const cached = this.definitions.get(device.deviceSn);
    if (cached && cached.expires > now) return cached.value;
    const value = await this.definitionRows.get(device);
    this.definitions.set(device.deviceSn, { value, expires: now + this.ttlMs });
    return value;
  }

  /** A device's definitions as they are now, not cached (a screen that must show a change at once). */
  async loadDefinitions(device: KnownDevice): Promise<DeviceDefinitions> {
    return (await this.loadDefinitionsOf([device])).get(device) ?? { byKey: new Map(), aliases: new Map() };
  }

  private async loadDevices(sns: string[]): Promise<Map<string, Credential>> {
    const rows = await this.db
      .selectFrom('devices')
      .select(['group_id', 'device_sn', 'project_id', 'type_id', 'device_name', 'secret_hash'])
      .where('device_sn', 'in', sns)
      .where('deleted_at', 'is', null)
      .execute();
    return new Map(
      rows.map((r) => [
        r.device_sn,
        {
          device: { groupId: r.group_id, deviceSn: r.device_sn, projectId: r.project_id, typeId: r.type_id, name: r.device_name },
          secretHash: r.secret_hash,
        },
      ]),
    );
  }

  /** The definitions of several devices: their own data points in one query, their types' in one more. */
  private async loadDefinitionsOf(devices: KnownDevice[]): Promise<Map<KnownDevice, DeviceDefinitions>> {
    const own = await this.db
      .selectFrom('device_data_defines')
      .select(['group_id', 'device_sn', 'data_key', 'data_type', 'data_name', 'unit'])
      .where(
        'device_sn',
        'in',
        devices.map((d) => d.deviceSn),
      )
      .execute();
    const typeIds = [...new Set(devices.flatMap((d) => (d.typeId === null ? [] : [d.typeId])))];
    const typed =
      typeIds.length === 0
        ? []
        : await this.db
            .selectFrom('type_data_defines as t')
            .innerJoin('data_defines as d', 'd.id', 't.data_define_id')
            .select(['t.group_id', 't.type_id', 'd.data_key', 'd.data_type', 'd.data_name', 'd.unit', 't.out_key'])
            .where('t.type_id', 'in', typeIds)
            .execute();
    const ownBySn = groupBy(own, (r) => r.device_sn);
    const typedById = groupBy(typed, (r) => r.type_id);
    const answer = new Map<KnownDevice, DeviceDefinitions>();
    for (const device of devices) {
      const byKey: DeviceDefinitions['byKey'] = new Map();
      const aliases = new Map<string, string>();
      const add = (key: string, type: string, name: string, unit: string) => {
        if (!byKey.has(key)) byKey.set(key, { key, type, name, unit });
      };
      const mine = (ownBySn.get(device.deviceSn) ?? []).filter((r) => r.group_id === device.groupId);
      for (const r of mine) add(r.data_key, r.data_type, r.data_name, r.unit);
      for (const r of device.typeId === null ? [] : (typedById.get(device.typeId) ?? [])) {
        if (r.group_id !== device.groupId) continue;
        if (mine.length === 0) add(r.data_key, r.data_type, r.data_name, r.unit);
        if (r.out_key && r.out_key !== r.data_key) aliases.set(r.out_key, r.data_key);
      }
      answer.set(device, { byKey, aliases });
    }
    return answer;
  }
}

function groupBy<T, K>(rows: T[], keyOf: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const group = groups.get(keyOf(row));
    if (group) group.push(row);
    else groups.set(keyOf(row), [row]);
  }
  return groups;
}

interface Credential {
  device: KnownDevice;
  secretHash: string;
}
