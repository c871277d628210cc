/**
 * The ingestion pipeline: a message from a device's topic is parsed, checked against the
 * device's data definitions and stored; errors open and close alarms; status messages and
 * every message move the online state; acknowledgements complete the device log. Nothing a
 * device sends can crash it or block it: what the server cannot use is refused — acknowledged,
 * counted and recorded in the device's log with the reason (RefusalLog) — and only a fault on
 * the server's side (the database) leaves a message unacknowledged, to be sent again. Reading a
 * message that throws is such a refusal too, never a reason to have it sent again for ever.
 */
import type { TopicAddress, TopicKind } from '@sluice/shared/device-protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { CommandsService } from '../commands/commands.service.ts';
import type { OnlineService } from '../online/online.service.ts';
import type { AlarmsService } from '../alarms/alarms.service.ts';
import { checkValue, storeUndefined, type StoredValue } from './data-validation.ts';
import type { DeviceDefinitions, DeviceDirectory, KnownDevice } from './device-directory.ts';
import type { IngestMessage, IngestWriter } from './ingest-writer.ts';
import { parseAck, parseData, parseError, parseStatus, type DataRecord, type Parsed } from './payload.ts';
import type { Refusal, RefusalLog } from './refusal-log.ts';
import type { UndefinedKeyLimit } from './undefined-keys.ts';

export interface IngestCounters {
  received: number;
  stored: number;
  /** Messages refused whole (not JSON, bad Time, no such device…). */
  refused: number;
  /** Values refused inside otherwise good messages (wrong type, bad key). */
  refusedValues: number;
  /** Values of keys without a data definition (stored, flagged). */
  undefinedValues: number;
  /** Values refused because their key would be one undefined key more than MAX_UNDEFINED_KEYS. */
  refusedUndefinedKeys: number;
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
  /**
   * Called when a data message has been checked and handed to the writer, before its commit:
   * the embedded broker delivers it to consoles then (their live view does not wait for the
   * disk); the device's PUBACK still waits for the commit.
   */
  accepted?: () => void;
}

export class IngestionService {
  readonly counters: IngestCounters = {
    received: 0,
    stored: 0,
    refused: 0,
    refusedValues: 0,
    undefinedValues: 0,
    refusedUndefinedKeys: 0,
    failed: 0,
  };
  /** Messages received since start by their topic's kind (metrics). */
  readonly byKind = new Map<string, number>();
  private readonly deps: {
    directory: DeviceDirectory;
    writer: IngestWriter;
    online: OnlineService;
    alarms: AlarmsService;
    commands: CommandsService;
    refusals: RefusalLog;
    undefinedKeys: UndefinedKeyLimit;
    offsetMinutes: number;
    log: FastifyBaseLogger;
  };

  constructor(deps: IngestionService['deps']) {
    this.deps = deps;
  }

  /** Messages being handled now (looked up, checked, waiting for the writer or its commit). */
  pending = 0;

  async handle(message: IncomingMessage, now = Date.now()): Promise<IngestOutcome> {
    this.pending += 1;
    try {
      return await this.handleOne(message, now);
    } finally {
      this.pending -= 1;
    }
  }

  private async handleOne(message: IncomingMessage, now: number): Promise<IngestOutcome> {
    this.counters.received += 1;
    const { address } = message;
    this.byKind.set(address.kind, (this.byKind.get(address.kind) ?? 0) + 1);
    try {
      const device = await this.deps.directory.device(address.deviceSn, now);
      const { kind, deviceSn } = address;
      if (!device) return await this.refuse({ deviceSn, kind, reason: 'no such device' }, now);
      if (address.groupId !== undefined && address.groupId !== device.groupId) {
        const reason = `the device is not in group ${String(address.groupId)}`;
        return await this.refuse({ deviceSn, groupId: device.groupId, kind, reason, payload: message.payload }, now);
      }
      switch (address.kind) {
        case 'data':
          return await this.data(device, message, now);
        case 'error':
          return await this.error(device, message.payload, now);
        case 'status':
          return await this.status(device, message, now);
        case 'ack':
          return await this.ack(device, message.payload, now);
        default:
          return await this.refuse(
            { ...device, kind, reason: `devices do not publish on ${kind} topics`, payload: message.payload },
            now,
          );
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

  /** A message the server cannot use: acknowledged (so that the device does not send it again), counted, recorded. */
  private async refuse(refusal: Refusal, now: number): Promise<IngestOutcome> {
    this.counters.refused += 1;
    await this.deps.refusals.record(refusal, now);
    return { ok: false, reason: refusal.reason };
  }

  /**
   * Reading a message is pure: when it throws, that is a fault in reading, which sending the
   * message again would only repeat. It is refused (and the fault logged) instead.
   */
  private read<T>(device: KnownDevice, kind: TopicKind, step: () => Parsed<T>): Parsed<T> {
    try {
      return step();
    } catch (error) {
      this.deps.log.error({ err: error, deviceSn: device.deviceSn, kind }, 'reading a device message failed');
      return { ok: false, reason: 'the message could not be read' };
    }
  }

  private async data(device: KnownDevice, incoming: IncomingMessage, now: number): Promise<IngestOutcome> {
    // What waits for the writer is the compact message alone (the parsed and checked values are the prepare step's).
    const prepared = await this.prepareData(device, incoming.payload, now);
    if ('outcome' in prepared) return prepared.outcome;
    const written = this.deps.writer.write(prepared.message);
    incoming.accepted?.();
    await written;
    this.counters.stored += 1;
    // Alarms of linked data keys follow the stored data; they never hold up the acknowledgement.
    this.deps.alarms.fromMessage(device, prepared.message).catch((error: unknown) => {
      this.deps.log.error({ err: error, deviceSn: device.deviceSn }, 'alarms from data failed');
    });
    return { ok: true };
  }

  /** A data message read, checked and bounded: what to store, or the outcome when there is nothing to. */
  private async prepareData(
    device: KnownDevice,
    payload: Buffer,
    now: number,
  ): Promise<{ message: IngestMessage } | { outcome: IngestOutcome }> {
    const parsed = this.read(device, 'data', () => parseData(payload, this.deps.offsetMinutes, now));
    if (!parsed.ok) return { outcome: await this.refuse({ ...device, kind: 'data', reason: parsed.reason, payload }, now) };
    const definitions = await this.deps.directory.definitionsOf(device, now);
    const checked = this.read(device, 'data', () => this.check(device, parsed.value, definitions, payload.length));
    if (!checked.ok) return { outcome: await this.refuse({ ...device, kind: 'data', reason: checked.reason, payload }, now) };
    const { refused } = checked.value;
    let message = checked.value.message;
    const undefinedKeys = new Set(message.keys.filter((_, i) => message.defined[i] !== 1));
    const over = await this.deps.undefinedKeys.over(device, definitions.byKey, undefinedKeys, now);
    if (over.size > 0) {
      const reason = `more than ${String(this.deps.undefinedKeys.limit)} data keys without a definition`;
      for (const key of over) refused.push({ key, reason });
      const before = message.keys.length;
      message = without(message, (key) => over.has(key));
      this.counters.refusedUndefinedKeys += before - message.keys.length;
    }
    this.counters.undefinedValues += message.defined.filter((d) => d !== 1).length;
    void this.deps.online.touch(device.groupId, device.deviceSn, now);
    if (refused.length > 0) {
      this.counters.refusedValues += refused.length;
      const listed = refused
        .slice(0, 5)
        .map((r) => `${r.key}: ${r.reason}`)
        .join('; ');
      const reason = `${String(refused.length)} value(s) refused: ${listed}${refused.length > 5 ? '; …' : ''}`;
      if (message.keys.length === 0) return { outcome: await this.refuse({ ...device, kind: 'data', reason, payload }, now) };
      await this.deps.refusals.record({ ...device, kind: 'data', reason, payload }, now);
    }
    if (message.keys.length === 0) return { outcome: { ok: true } };
    return { message };
  }

  /** A message's values checked against the device's definitions: the points to store, and the values refused. */
  private check(
    device: KnownDevice,
    records: DataRecord[],
    { byKey, aliases }: DeviceDefinitions,
    bytes: number,
  ): Parsed<{ message: IngestMessage; refused: { key: string; reason: string }[] }> {
    const message: IngestMessage = {
      groupId: device.groupId,
      deviceSn: device.deviceSn,
      keys: [],
      ts: [],
      num: [],
      txt: undefined,
      defined: [],
      bytes,
    };
    const refused: { key: string; reason: string }[] = [];
    for (const record of records) {
      refused.push(...record.refused);
      for (const [wireKey, value] of Object.entries(record.values)) {
        const key = aliases.get(wireKey) ?? wireKey;
        const definition = byKey.get(key);
        let stored: StoredValue;
        if (definition) {
          const checked = checkValue(value, definition.type);
          if (!checked.ok) {
            refused.push({ key, reason: checked.reason });
            continue;
          }
          stored = checked.value;
        } else stored = storeUndefined(value);
        if (stored.txt !== null) {
          message.txt ??= new Array<string | null>(message.keys.length).fill(null);
          message.txt.push(stored.txt);
        } else message.txt?.push(null);
        message.keys.push(key);
        message.ts.push(record.ts);
        message.num.push(stored.num ?? NaN);
        message.defined.push(definition ? 1 : 0);
      }
    }
    return { ok: true, value: { message, refused } };
  }

  private async error(device: KnownDevice, payload: Buffer, now: number): Promise<IngestOutcome> {
    const parsed = this.read(device, 'error', () => parseError(payload, this.deps.offsetMinutes, now));
    if (!parsed.ok) return this.refuse({ ...device, kind: 'error', reason: parsed.reason, payload }, now);
    void this.deps.online.touch(device.groupId, device.deviceSn, now);
    const { ts, codes, change } = parsed.value;
    if (codes) await this.deps.alarms.setActive(device, codes, ts);
    else if (change) await this.deps.alarms.change(device, change.code, change.active, ts);
    this.counters.stored += 1;
    return { ok: true };
  }

  private async status(device: KnownDevice, message: IncomingMessage, now: number): Promise<IngestOutcome> {
    const parsed = this.read(device, 'status', () => parseStatus(message.payload, this.deps.offsetMinutes, now));
    if (!parsed.ok) return this.refuse({ ...device, kind: 'status', reason: parsed.reason, payload: message.payload }, now);
    if (parsed.value.online) {
      // A retained 'online' replayed on subscription says nothing about now; the time-out decides.
      if (!message.retained) await this.deps.online.touch(device.groupId, device.deviceSn, now);
    } else {
      await this.deps.online.offline(device.groupId, device.deviceSn, 'will', now);
    }
    return { ok: true };
  }

  private async ack(device: KnownDevice, payload: Buffer, now: number): Promise<IngestOutcome> {
    const parsed = this.read(device, 'ack', () => parseAck(payload));
    if (!parsed.ok) return this.refuse({ ...device, kind: 'ack', reason: parsed.reason, payload }, now);
    void this.deps.online.touch(device.groupId, device.deviceSn, now);
    await this.deps.commands.acknowledge(device, parsed.value, now);
    return { ok: true };
  }
}

/** The message without the points whose key `drop` says. */
function without(message: IngestMessage, drop: (key: string) => boolean): IngestMessage {
  const keep = message.keys.flatMap((key, i) => (drop(key) ? [] : [i]));
  return {
    ...message,
    keys: keep.map((i) => message.keys[i] ?? ''),
    ts: keep.map((i) => message.ts[i] ?? 0),
    num: keep.map((i) => message.num[i] ?? NaN),
    txt: message.txt && keep.map((i) => message.txt?.[i] ?? null),
    defined: keep.map((i) => message.defined[i] ?? 0),
  };
}
