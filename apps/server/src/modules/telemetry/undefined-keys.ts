/**
 * The bound on keys without a data definition (MAX_UNDEFINED_KEYS): each new one becomes a
 * history series of its own, so a device may create only so many; values of further new keys
 * are refused. Keys the device already has a series of are always taken. What a device has is
 * read from its series and kept for a minute; keys admitted since count at once, so that
 * messages read together cannot pass the bound between them. Devices asked for together are
 * read together (batch-loader.ts).
 */
import { BatchLoader } from './batch-loader.ts';
import type { DeviceDefinitions, KnownDevice } from './device-directory.ts';
import type { HistoryRepository } from './history.repository.ts';

interface Entry {
  /** Keys the device has a series of, or was admitted since. */
  keys: Set<string>;
  /** How many of them have no definition in `definitions`. */
  undefinedCount: number;
  /** The definitions the count was made against (the directory hands out a new object when they change). */
  definitions: DeviceDefinitions['byKey'] | undefined;
  expires: number;
}

export class UndefinedKeyLimit {
  private readonly entries = new Map<string, Entry>();
  private readonly history: HistoryRepository;
  readonly limit: number;
  private readonly ttlMs: number;
  /** The keys of each device's series. */
  private readonly seriesKeys = new BatchLoader<KnownDevice, string[]>((devices) => this.loadKeys(devices), []);

  constructor(history: HistoryRepository, limit: number, ttlMs = 60_000) {
    this.history = history;
    this.limit = limit;
    this.ttlMs = ttlMs;
  }

  private async loadKeys(devices: KnownDevice[]): Promise<Map<KnownDevice, string[]>> {
    const answer = new Map<KnownDevice, string[]>();
    for (const groupId of new Set(devices.map((d) => d.groupId))) {
      const inGroup = devices.filter((d) => d.groupId === groupId);
      const keys = new Map<string, string[]>(inGroup.map((d) => [d.deviceSn, []]));
      for (const s of await this.history.seriesOf(
        groupId,
        inGroup.map((d) => d.deviceSn),
      ))
        keys.get(s.deviceSn)?.push(s.key);
      for (const d of inGroup) answer.set(d, keys.get(d.deviceSn) ?? []);
    }
    return answer;
  }

  /** Of the undefined keys a message brings, those beyond the bound (to be refused); the others now count as the device's. */
  async over(device: KnownDevice, byKey: DeviceDefinitions['byKey'], keys: Iterable<string>, now: number): Promise<Set<string>> {
    const over = new Set<string>();
    let entry: Entry | undefined;
    for (const key of keys) {
      entry ??= await this.entry(device, byKey, now);
      if (entry.keys.has(key)) continue;
      if (entry.undefinedCount >= this.limit) {
        over.add(key);
        continue;
      }
      entry.keys.add(key);
      entry.undefinedCount += 1;
    }
    return over;
  }

  private async entry(device: KnownDevice, byKey: DeviceDefinitions['byKey'], now: number): Promise<Entry> {
    let entry = this.entries.get(device.deviceSn);
    if (!entry || entry.expires <= now) {
      const stale = entry;
      const series = await this.seriesKeys.get(device);
      // Another message may have read them meanwhile and admitted keys since: keep its entry.
      const meanwhile = this.entries.get(device.deviceSn);
      if (meanwhile && meanwhile !== stale) entry = meanwhile;
      else {
        entry = { keys: new Set(series), undefinedCount: 0, definitions: undefined, expires: now + this.ttlMs };
        this.entries.set(device.deviceSn, entry);
      }
    }
    if (entry.definitions !== byKey) {
      entry.definitions = byKey;
      entry.undefinedCount = [...entry.keys].filter((k) => !byKey.has(k)).length;
    }
    return entry;
  }
}
