/**
 * What the pipeline needs to know of a device, cached for a short while: its group, project
 * and type, the hash of its MQTT secret (so that a connect storm after a restart costs one
 * query per device, not two), and its data definitions (the device's own data points when it
 * has any, else its type's). A device in the recycle bin is unknown here, so the broker
 * refuses it. A change to a device (a reset credential too) makes it forgotten at once.
 */
import type { Db } from '../../db/database.ts';
import type { PointDefinition } from './data-validation.ts';

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
    const row = await this.db
      .selectFrom('devices')
      .select(['group_id', 'device_sn', 'project_id', 'type_id', 'device_name', 'secret_hash'])
      .where('device_sn', '=', deviceSn)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    const value = row && {
      groupId: row.group_id,
      deviceSn: row.device_sn,
      projectId: row.project_id,
      typeId: row.type_id,
      name: row.device_name,
    };
    this.devices.set(deviceSn, { value, expires: now + this.ttlMs });
    if (row) this.secretHashes.set(deviceSn, row.secret_hash);
    else this.secretHashes.delete(deviceSn);
    return value;
  }

  /** A live device and the SHA-256 of its MQTT secret, for the broker's authentication. */
  async credential(deviceSn: string, now = Date.now()): Promise<{ device: KnownDevice; secretHash: string } | undefined> {
    const device = await this.device(deviceSn, now);
    const secretHash = this.secretHashes.get(deviceSn);
    return device && secretHash !== undefined ? { device, secretHash } : undefined;
  }

  async definitionsOf(device: KnownDevice, now = Date.now()): Promise<DeviceDefinitions> {
    const cached = this.definitions.get(device.deviceSn);
    if (cached && cached.expires > now) return cached.value;
    const value = await this.loadDefinitions(device);
    this.definitions.set(device.deviceSn, { value, expires: now + this.ttlMs });
    return value;
  }

  /** A device's definitions as they are now, not cached (a screen that must show a change at once). */
  async loadDefinitions(device: KnownDevice): Promise<DeviceDefinitions> {
    const own = await this.db
      .selectFrom('device_data_defines')
      .select(['data_key', 'data_type', 'data_name', 'unit'])
      .where('group_id', '=', device.groupId)
      .where('device_sn', '=', device.deviceSn)
      .execute();
    const byKey: DeviceDefinitions['byKey'] = new Map();
    const aliases = new Map<string, string>();
    const add = (key: string, type: string, name: string, unit: string) => {
      if (!byKey.has(key)) byKey.set(key, { key, type, name, unit });
    };
    for (const r of own) add(r.data_key, r.data_type, r.data_name, r.unit);
    if (device.typeId !== null) {
      const typed = await this.db
        .selectFrom('type_data_defines as t')
        .innerJoin('data_defines as d', 'd.id', 't.data_define_id')
        .select(['d.data_key', 'd.data_type', 'd.data_name', 'd.unit', 't.out_key'])
        .where('t.group_id', '=', device.groupId)
        .where('t.type_id', '=', device.typeId)
        .execute();
      for (const r of typed) {
        if (own.length === 0) add(r.data_key, r.data_type, r.data_name, r.unit);
        if (r.out_key && r.out_key !== r.data_key) aliases.set(r.out_key, r.data_key);
      }
    }
    return { byKey, aliases };
  }
}
