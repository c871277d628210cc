/**
 * Commands to devices (switches, set-points, control mode, one-key stop, alarm reset): the
 * caller must hold device.control and more than a view-only grant on the device; the device
 * must be online; in auto mode only the control mode itself and one-key stop may be changed
 * (§5: 自动模式下不允许控制设备); with no control mode known the command is sent with a
 * warning. Each command is written to the device log (old and new value, when) and published
 * on the device's cmd topic; the device's acknowledgement completes the log row, and a command
 * left unanswered for COMMAND_TIMEOUT is marked timed out (an answer arriving later still counts).
 */
import { randomBytes } from 'node:crypto';
import { CONTROL_MODE, STATION_KEYS } from '@sluice/shared/station-keys';
import { checkControlValue } from '@sluice/shared/control-values';
import { parseMessageRef } from '@sluice/shared/rules';
import type { AckMessage, CommandMessage, DataValue, TopicCodec } from '@sluice/shared/device-protocol';
import type { MessageKey } from '@sluice/shared/i18n';
import type { DeviceLogDto } from '@sluice/shared/telemetry.schema';
import { AppError } from '../../http/errors.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import type { SiteScope } from '../sites/site-scope.ts';
import type { DeviceDirectory, KnownDevice } from '../telemetry/device-directory.ts';
import type { HistoryRepository } from '../telemetry/history.repository.ts';
import type { MessageBus } from '../../mqtt/message-bus.ts';
import type { LiveEvents } from '../../mqtt/live-events.ts';
import type { DeviceLogRow, DeviceLogsRepository } from './device-logs.repository.ts';
import type { ControlDefinitionsRepository } from './control-definitions.repository.ts';

/** Keys that may change even in auto mode: leaving auto mode, and stopping everything. */
const ALLOWED_IN_AUTO = new Set<string>([STATION_KEYS.controlMode, STATION_KEYS.oneKeyStop]);

/** A device log row as the API answers it. */
export const deviceLogOf = (r: DeviceLogRow): DeviceLogDto => ({
  Id: r.id,
  DeviceSn: r.device_sn,
  CommandId: r.command_id,
  Key: r.data_key,
  KeyName: r.key_name,
  OldValue: r.old_value,
  NewValue: r.new_value,
  SendTime: r.send_time,
  Time: r.ack_time,
  State: r.state,
  Message: r.message,
  UserName: r.user_name,
});

export interface SentCommand {
  log: DeviceLogRow;
  message: MessageKey;
}

export class CommandsService {
  private readonly deps: {
    scope: SiteScope;
    directory: DeviceDirectory;
    definitions: ControlDefinitionsRepository;
    history: HistoryRepository;
    logs: DeviceLogsRepository;
    bus: MessageBus;
    topics: TopicCodec;
    events: LiveEvents;
    userName: (user: CurrentUser) => Promise<string>;
    /** How long a command waits for the device's answer. */
    timeoutMs: number;
    onError: (error: unknown) => void;
  };
  /** One timer per command waiting for its answer. */
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(deps: CommandsService['deps']) {
    this.deps = deps;
  }

  /** Times out what was left waiting before this process started. */
  start(): void {
    this.expireOverdue().catch(this.deps.onError);
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /**
   * Marks every command sent at least the time-out before `now` that no device answered as
   * timed out, and tells consoles. The timers call it; tests call it with their own clock.
   */
  async expireOverdue(now = Date.now()): Promise<DeviceLogRow[]> {
    const expired = await this.deps.logs.expire(now - this.deps.timeoutMs);
    for (const row of expired) {
      this.deps.events.emit(row.group_id, {
        Type: 'timeout',
        DeviceSn: row.device_sn,
        Id: row.command_id,
        Key: row.data_key,
        Time: now,
      });
    }
    return expired;
  }

  /** Runs the time-out of a command sent at `sentAt` when it falls due (by the timer, not the wall clock). */
  private expireLater(sentAt: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.expireOverdue(sentAt + this.deps.timeoutMs).catch(this.deps.onError);
    }, this.deps.timeoutMs);
    timer.unref();
    this.timers.add(timer);
  }

  async send(user: CurrentUser, deviceSn: string, key: string, value: DataValue, now = Date.now()): Promise<SentCommand> {
    const { scope, directory, definitions, history, logs, bus, topics } = this.deps;
    const row = await scope.device(user, deviceSn, 'write');
    const device = await directory.device(row.device_sn);
    if (!device) throw new AppError(404, 'error.notFound');
    const governing = await definitions.of(device, key);
    if (!governing) throw new AppError(400, 'command.unknownKey', { key }, 'Key');
    const checked = checkControlValue(governing.definition, value);
    if (!checked.ok) {
      if (parseMessageRef(checked.message).key === 'rule.readOnly') {
        throw new AppError(400, 'command.readOnly', { name: governing.name, key }, 'Key');
      }
      throw new AppError(400, 'command.badValue', { name: governing.name, key, reason: { ref: checked.message } }, 'Value');
    }
    const newValue = checked.value;
    if (row.online !== 1) throw new AppError(409, 'command.offline');

    const latest = (await history.latest(device.groupId, [device.deviceSn])).get(device.deviceSn)?.data ?? {};
    const mode = latest[STATION_KEYS.controlMode];
    const knowsMode = mode !== undefined || (await definitions.of(device, STATION_KEYS.controlMode)) !== undefined;
    if (Number(mode) === CONTROL_MODE.auto && !ALLOWED_IN_AUTO.has(key)) throw new AppError(409, 'command.autoMode');

    const id = randomBytes(16).toString('hex');
    const log = await logs.insert({
      group_id: device.groupId,
      device_sn: device.deviceSn,
      command_id: id,
      data_key: key,
      key_name: governing.name,
      old_value: latest[key] === undefined ? '' : String(latest[key]),
      new_value: String(newValue),
      send_time: now,
      ack_time: null,
      user_id: user.id,
      user_name: await this.deps.userName(user),
    });
    const command: CommandMessage = { Id: id, Key: key, Value: newValue, Time: now };
    this.expireLater(now);
    await bus.publish(topics.topic('cmd', device.deviceSn, device.groupId), JSON.stringify(command), { qos: 1 });
    return { log, message: knowsMode ? 'command.sent' : 'command.noControlMode' };
  }

  /** A device's acknowledgement of a command. */
  async acknowledge(device: KnownDevice, ack: AckMessage, at: number): Promise<void> {
    const row = await this.deps.logs.acknowledge(device.groupId, device.deviceSn, ack.Id, ack.Success, ack.Message ?? '', at);
    if (!row) return;
    this.deps.events.emit(device.groupId, {
      Type: 'ack',
      DeviceSn: device.deviceSn,
      Id: ack.Id,
      Key: row.data_key,
      Success: ack.Success,
      ...(ack.Value !== undefined ? { Value: ack.Value } : {}),
      Time: at,
    });
  }
}
