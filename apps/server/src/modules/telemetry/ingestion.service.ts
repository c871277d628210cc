/**
 * The ingestion pipeline: a message from a device's topic is parsed, checked against the
 * device's data definitions and stored; errors open and close alarms; status messages and
 * every message move the online state; acknowledgements complete the device log. Nothing a
 * device sends can crash it: what is wrong is refused with a logged reason and counted.
 */
import type { TopicAddress } from '@sluice/shared/device-protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { CommandsService } from '../commands/commands.service.ts';
import type { OnlineService } from '../online/online.service.ts';
import type { WarnsService } from '../warns/warns.service.ts';
import { checkValue, storeUndefined } from './data-validation.ts';
import type { DeviceDirectory, KnownDevice } from './device-directory.ts';
import type { IngestWriter } from './ingest-writer.ts';
import { parseAck, parseData, parseError, parseStatus } from './payload.ts';
import type { BatchPoint } from './telemetry-write.repository.ts';

export interface IngestCounters {
  received: number;
  stored: number;
  /** Messages refused whole (not JSON, bad Time, no such device…). */
  refused: number;
  /** Values refused inside otherwise good messages (wrong type, bad key). */
  refusedValues: number;
  /** Values of keys without a data definition (stored, flagged). */
  undefinedValues: number;
  failed: number;
}

export type IngestOutcome =
  | { ok: true }
  /** Refused: acknowledged (so the device does not send it again) but not stored. */
  | { ok: false; reason: string }
  /** Not stored because of a fault on our side: not acknowledged, so the device sends it again. */
  | { ok: false; reason: string; retry: true };

export interface IncomingMessage {
  address: TopicAddress;
  payload: Buffer;
  /** A retained message replayed by the broker (a status from before). */
  retained: boolean;
}

export class IngestionService {
  readonly counters: IngestCounters = { received: 0, stored: 0, refused: 0, refusedValues: 0, undefinedValues: 0, failed: 0 };
  private readonly deps: {
    directory: DeviceDirectory;
    writer: IngestWriter;
    online: OnlineService;
    warns: WarnsService;
    commands: CommandsService;
    offsetMinutes: number;
    log: FastifyBaseLogger;
  };

  constructor(deps: IngestionService['deps']) {
    this.deps = deps;
  }

  async handle(message: IncomingMessage, now = Date.now()): Promise<IngestOutcome> {
    this.counters.received += 1;
    const { address } = message;
    try {
      const device = await this.deps.directory.device(address.deviceSn, now);
      if (!device) return this.refuse(address, 'no such device');
      if (address.groupId !== undefined && address.groupId !== device.groupId)
        return this.refuse(address, `the device is not in group ${String(address.groupId)}`);
      switch (address.kind) {
        case 'data':
          return await this.data(device, message.payload, now);
        case 'error':
          return await this.error(device, message.payload, now);
        case 'status':
          return await this.status(device, message, now);
        case 'ack':
          return await this.ack(device, message.payload, now);
        default:
          return this.refuse(address, `devices do not publish on ${address.kind} topics`);
      }
    } catch (error) {
      this.counters.failed += 1;
      this.deps.log.error(
        { err: error, deviceSn: address.deviceSn, kind: address.kind },
        'ingestion failed; the message is not acknowledged',
      );
      return { ok: false, reason: 'storage failed', retry: true };
    }
  }

  private refuse(address: TopicAddress, reason: string): IngestOutcome {
    this.counters.refused += 1;
    this.deps.log.warn({ deviceSn: address.deviceSn, kind: address.kind, reason }, 'device message refused');
    return { ok: false, reason };
  }

  private async data(device: KnownDevice, payload: Buffer, now: number): Promise<IngestOutcome> {
    const parsed = parseData(payload, this.deps.offsetMinutes, now);
    if (!parsed.ok) return this.refuse({ kind: 'data', deviceSn: device.deviceSn }, parsed.reason);
    const { byKey, aliases } = await this.deps.directory.definitionsOf(device, now);
    const points: BatchPoint[] = [];
    const latest: { ts: number; data: Record<string, number | string> }[] = [];
    const refused: { key: string; reason: string }[] = [];
    for (const record of parsed.value) {
      refused.push(...record.refused);
      const data: Record<string, number | string> = {};
      for (const [wireKey, value] of Object.entries(record.values)) {
        const key = aliases.get(wireKey) ?? wireKey;
        const definition = byKey.get(key);
        let stored;
        if (definition) {
          const checked = checkValue(value, definition.type);
          if (!checked.ok) {
            refused.push({ key, reason: checked.reason });
            continue;
          }
          stored = checked.value;
        } else {
          stored = storeUndefined(value);
          this.counters.undefinedValues += 1;
        }
        points.push({
          groupId: device.groupId,
          deviceSn: device.deviceSn,
          key,
          defined: definition !== undefined,
          ts: record.ts,
          num: stored.num,
          txt: stored.txt,
        });
        data[key] = stored.num ?? stored.txt ?? '';
      }
      if (Object.keys(data).length > 0) latest.push({ ts: record.ts, data });
    }
    if (refused.length > 0) {
      this.counters.refusedValues += refused.length;
      this.deps.log.warn({ deviceSn: device.deviceSn, refused: refused.slice(0, 10) }, 'data values refused');
    }
    void this.deps.online.touch(device.groupId, device.deviceSn, now);
    if (points.length === 0) return refused.length > 0 ? { ok: false, reason: 'every value was refused' } : { ok: true };
    await this.deps.writer.write({ groupId: device.groupId, deviceSn: device.deviceSn, points, latest });
    this.counters.stored += 1;
    // Alarms of linked data keys follow the stored data; they never hold up the acknowledgement.
    for (const l of latest) {
      this.deps.warns.fromData(device, l.data, l.ts).catch((error: unknown) => {
        this.deps.log.error({ err: error, deviceSn: device.deviceSn }, 'alarms from data failed');
      });
    }
    return { ok: true };
  }

  private async error(device: KnownDevice, payload: Buffer, now: number): Promise<IngestOutcome> {
    const parsed = parseError(payload, this.deps.offsetMinutes, now);
    if (!parsed.ok) return this.refuse({ kind: 'error', deviceSn: device.deviceSn }, parsed.reason);
    void this.deps.online.touch(device.groupId, device.deviceSn, now);
    const { ts, codes, change } = parsed.value;
    if (codes) await this.deps.warns.setActive(device, codes, ts);
    else if (change) await this.deps.warns.change(device, change.code, change.active, ts);
    this.counters.stored += 1;
    return { ok: true };
  }

  private async status(device: KnownDevice, message: IncomingMessage, now: number): Promise<IngestOutcome> {
    const parsed = parseStatus(message.payload, this.deps.offsetMinutes, now);
    if (!parsed.ok) return this.refuse({ kind: 'status', deviceSn: device.deviceSn }, parsed.reason);
    if (parsed.value.online) {
      // A retained 'online' replayed on subscription says nothing about now; the time-out decides.
      if (!message.retained) await this.deps.online.touch(device.groupId, device.deviceSn, now);
    } else {
      await this.deps.online.offline(device.groupId, device.deviceSn, 'will', now);
    }
    return { ok: true };
  }

  private async ack(device: KnownDevice, payload: Buffer, now: number): Promise<IngestOutcome> {
    const parsed = parseAck(payload);
    if (!parsed.ok) return this.refuse({ kind: 'ack', deviceSn: device.deviceSn }, parsed.reason);
    void this.deps.online.touch(device.groupId, device.deviceSn, now);
    await this.deps.commands.acknowledge(device, parsed.value, now);
    return { ok: true };
  }
}
