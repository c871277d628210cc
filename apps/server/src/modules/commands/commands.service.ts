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
import { DEVICE_LOG_STATE, type DeviceLogDto } from '@sluice/shared/telemetry.schema';
import { AppError } from '../../http/errors.ts';
import { afterCommit } from '../../db/request-transaction.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import type { SiteScope } from '../sites/site-scope.ts';
import type { DeviceDirectory, KnownDevice } from '../telemetry/device-directory.ts';
import type { HistoryRepository } from '../telemetry/history.repository.ts';
import type { MessageBus } from '../../mqtt/message-bus.ts';
import type { LiveEvents } from '../../mqtt/live-events.ts';
import type { DeviceLogRow, DeviceLogsRepository } from './device-logs.repository.ts';
import type { ControlDefinitionsRepository, GoverningDefinition } from './control-definitions.repository.ts';
import { parseFormula } from '@sluice/shared/formula';
import type { ControlPointDto, DeviceControlDto, DeviceControlModuleDto } from '@sluice/shared/device-control.schema';

/** Controls the panel shows apart from the modules: the mode tabs and the two danger buttons. */
const PANEL_KEYS = new Set<string>([STATION_KEYS.controlMode, STATION_KEYS.oneKeyStop, STATION_KEYS.alarmReset]);

const pointOf = (key: string, governing: GoverningDefinition): ControlPointDto => ({
  Key: key,
  Name: governing.name,
  DataType: governing.definition.dataType,
  Format: governing.definition.format,
  Unit: governing.definition.unit,
  ShowType: governing.definition.showType ?? '',
});

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
    /** Whether the user's roles hold device.control (administrators hold every operate). */
    holdsControl: (user: CurrentUser) => Promise<boolean>;
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

  /** Whether the user may control the device: holds device.control and more than a view-only grant on it. */
  async mayControl(user: CurrentUser, deviceSn: string): Promise<boolean> {
    if (!user.isAdmin && !(await this.deps.holdsControl(user))) return false;
    return this.deps.scope.device(user, deviceSn, 'write').then(
      () => true,
      () => false,
    );
  }

  /**
   * The device's control panel: its type's modules and controls, each with the definition a
   * command to it is checked against (so the console refuses what the server would), the
   * control mode and the two danger buttons.
   */
  async panel(user: CurrentUser, deviceSn: string): Promise<DeviceControlDto> {
    const { scope, directory, definitions } = this.deps;
    const row = await scope.device(user, deviceSn);
    const device = await directory.device(row.device_sn);
    if (!device) throw new AppError(404, 'error.notFound');
    const points = new Map<string, Promise<ControlPointDto | null>>();
    const point = (key: string) => {
      let found = points.get(key);
      if (!found) {
        found = definitions.of(device, key).then((g) => (g ? pointOf(key, g) : null));
        points.set(key, found);
      }
      return found;
    };
    const modules: DeviceControlModuleDto[] = [];
    if (device.typeId !== null) {
      const rows = await definitions.typeModules(device.groupId, device.typeId);
      for (const m of rows.modules) {
        const controls: DeviceControlModuleDto['Controls'] = [];
        for (const c of rows.controls.filter((x) => x.moduleId === m.id && !PANEL_KEYS.has(x.key))) {
          const own = await point(c.key);
          if (!own) continue;
          const currentKey = parseFormula(c.formula)?.CurrentValue ?? null;
          const feedbacks: ControlPointDto[] = [];
          for (const f of rows.feedbacks.filter((x) => x.controlId === c.id)) {
            const p = await point(f.key);
            if (p) feedbacks.push(p);
          }
          controls.push({
            Id: c.id,
            ControlName: c.name,
            Point: own,
            CurrentKey: currentKey,
            Current: currentKey === null ? null : await point(currentKey),
            Feedbacks: feedbacks,
            Sn: c.sn,
          });
        }
        if (controls.length > 0)
          modules.push({ Id: m.id, ModuleName: m.module_name, ModuleType: m.module_type, Sn: m.sn, Controls: controls });
      }
    }
    return {
      DeviceSn: row.device_sn,
      Online: row.online === 1,
      CanControl: await this.mayControl(user, row.device_sn),
      ControlMode: await point(STATION_KEYS.controlMode),
      OneKeyStop: await point(STATION_KEYS.oneKeyStop),
      AlarmReset: await point(STATION_KEYS.alarmReset),
      Modules: modules,
    };
  }

  async send(user: CurrentUser, deviceSn: string, key: string, value: DataValue, now = Date.now()): Promise<SentCommand> {
    const { scope, directory, definitions, history } = this.deps;
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

    const log = await this.dispatch(user, device, {
      key,
      keyName: governing.name,
      oldValue: latest[key] === undefined ? '' : String(latest[key]),
      newValue: String(newValue),
      value: newValue,
      now,
    });
    return { log, message: knowsMode ? 'command.sent' : 'command.noControlMode' };
  }

  /** A device's data points (its own, else its type's) by key: type and name. */
  async pointsOf(groupId: number, deviceSn: string): Promise<{ key: string; name: string; type: string }[]> {
    const device = await this.deps.directory.device(deviceSn);
    if (!device || device.groupId !== groupId) return [];
    return [...(await this.deps.directory.loadDefinitions(device)).byKey.values()];
  }

  /** The definition of a device's data point, or undefined when the device has no such point. */
  async pointOf(groupId: number, deviceSn: string, key: string): Promise<GoverningDefinition | undefined> {
    const device = await this.deps.directory.device(deviceSn);
    if (!device || device.groupId !== groupId) return undefined;
    return this.deps.definitions.of(device, key);
  }

  /**
   * Sends a device its run model (`$RunModel` with the configuration) or a rotation (`$Rotate`
   * with a system's id), logged and answered like a command. Allowed in any control mode: the
   * device's own rotation applies it, also in auto mode.
   */
  async sendRunModel(
    user: CurrentUser,
    deviceSn: string,
    message: { key: string; keyName: string; value: CommandMessage['Value']; shown: string },
    now = Date.now(),
  ): Promise<SentCommand> {
    const row = await this.deps.scope.device(user, deviceSn, 'write');
    const device = await this.deps.directory.device(row.device_sn);
    if (!device) throw new AppError(404, 'error.notFound');
    if (row.online !== 1) throw new AppError(409, 'command.offline');
    const log = await this.dispatch(user, device, {
      key: message.key,
      keyName: message.keyName,
      oldValue: '',
      newValue: message.shown,
      value: message.value,
      now,
    });
    return { log, message: 'command.sent' };
  }

  /** Logs a command and publishes it on the device's cmd topic once the log row has committed; its time-out starts then. */
  private async dispatch(
    user: CurrentUser,
    device: KnownDevice,
    c: { key: string; keyName: string; oldValue: string; newValue: string; value: CommandMessage['Value']; now: number },
  ): Promise<DeviceLogRow> {
    const id = randomBytes(16).toString('hex');
    const log = await this.deps.logs.insert({
      group_id: device.groupId,
      device_sn: device.deviceSn,
      command_id: id,
      data_key: c.key,
      key_name: c.keyName,
      old_value: c.oldValue,
      new_value: c.newValue,
      send_time: c.now,
      ack_time: null,
      user_id: user.id,
      user_name: await this.deps.userName(user),
    });
    const command: CommandMessage = { Id: id, Key: c.key, Value: c.value, Time: c.now };
    // Once the log row (and the call's audit entry) committed: the device's answer must find it.
    afterCommit(async () => {
      this.expireLater(c.now);
      await this.deps.bus.publish(this.deps.topics.topic('cmd', device.deviceSn, device.groupId), JSON.stringify(command), {
        qos: 1,
      });
    });
    return log;
  }

  /** An operator's note in the device's log, about one of its data points when `key` is given. */
  async note(
    user: CurrentUser,
    deviceSn: string,
    message: string,
    key: string | undefined,
    now = Date.now(),
  ): Promise<DeviceLogRow> {
    const { scope, directory, definitions, logs } = this.deps;
    const row = await scope.device(user, deviceSn, 'write');
    const device = await directory.device(row.device_sn);
    if (!device) throw new AppError(404, 'error.notFound');
    const governing = key === undefined ? undefined : await definitions.of(device, key);
    if (key !== undefined && !governing) throw new AppError(400, 'command.unknownKey', { key }, 'Key');
    return logs.insert({
      group_id: device.groupId,
      device_sn: device.deviceSn,
      command_id: randomBytes(16).toString('hex'),
      data_key: key ?? '',
      key_name: governing?.name ?? '',
      send_time: now,
      ack_time: null,
      state: DEVICE_LOG_STATE.note,
      message,
      user_id: user.id,
      user_name: await this.deps.userName(user),
    });
  }

  /** Deletes one row of the device's log. */
  async deleteLog(user: CurrentUser, deviceSn: string, id: number): Promise<void> {
    const row = await this.deps.scope.device(user, deviceSn, 'write');
    if (!(await this.deps.logs.delete(user.groupId, row.device_sn, id))) throw new AppError(404, 'error.notFound');
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
      ...(ack.Message ? { Message: ack.Message } : {}),
      Time: at,
    });
  }
}
