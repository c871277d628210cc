/**
 * A device's custom run model (spec §4 accessory rotation): the rules of its steps, the model as
 * the console shows it, and the two messages to the device (docs/device-protocol.md, run model):
 * the configuration ($RunModel) and a rotation now ($Rotate, "switch to the standby pump now").
 *
 * What reaches the device is checked against its data points: a step switches one of the
 * device's boolean points, and its elapsed point is one of its numbers; a step's accessory must
 * be the same device's.
 */
import { RUN_MODEL_KEYS, type RunModelConfig } from '@sluice/shared/device-protocol';
import type { RunModelDto } from '@sluice/shared/run-model.schema';
import { AppError } from '../../http/errors.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import type { CommandsService, SentCommand } from '../commands/commands.service.ts';
import type { RunModelRepository } from './run-model.repository.ts';

/** Data types a step's elapsed seconds may be reported in. */
const NUMBERS = new Set(['readable', 'textbox', 'monitor']);

type Row = Record<string, unknown>;

export class RunModelService {
  private readonly deps: {
    repository: RunModelRepository;
    commands: CommandsService;
    /** The key of a library data point of the group, or a 400 naming the field. */
    dataDefineKey: (groupId: number, id: unknown, field: string) => Promise<string>;
  };

  constructor(deps: RunModelService['deps']) {
    this.deps = deps;
  }

  /** A new system accessory's system must be the device's. */
  async checkSystem(groupId: number, deviceSn: string, systemId: unknown): Promise<void> {
    if (typeof systemId !== 'number' || !(await this.deps.repository.hasSystem(groupId, deviceSn, systemId)))
      throw new AppError(400, 'ref.unknown', { what: 'SystemId', id: String(systemId) }, 'SystemId');
  }

  /**
   * Checks a step's columns (as written: data_define_id, associate_define_id, accessory_id) against
   * the device and returns them with the accessory's system.
   */
  async checkStep(groupId: number, deviceSn: string, row: Row): Promise<Row> {
    const { repository, commands, dataDefineKey } = this.deps;
    const out = { ...row };
    if (row.accessory_id !== undefined) {
      const accessoryId = Number(row.accessory_id);
      const system = await repository.accessorySystem(groupId, deviceSn, accessoryId);
      if (system === undefined)
        throw new AppError(400, 'ref.unknown', { what: 'AccessoryId', id: String(accessoryId) }, 'AccessoryId');
      out.system_id = system;
    }
    if (row.data_define_id !== undefined) {
      const key = await dataDefineKey(groupId, row.data_define_id, 'DataDefineId');
      const point = await commands.pointOf(groupId, deviceSn, key);
      if (point?.definition.dataType !== 'boolean')
        throw new AppError(400, 'runModel.notSwitch', { key, name: point?.name ?? key }, 'DataDefineId');
    }
    if (row.associate_define_id !== undefined && row.associate_define_id !== null) {
      const key = await dataDefineKey(groupId, row.associate_define_id, 'AssociateDefineId');
      const point = await commands.pointOf(groupId, deviceSn, key);
      if (!point || !NUMBERS.has(point.definition.dataType))
        throw new AppError(400, 'runModel.notElapsed', { key, name: point?.name ?? key }, 'AssociateDefineId');
    }
    return out;
  }

  async model(groupId: number, deviceSn: string): Promise<RunModelDto> {
    const { repository, commands } = this.deps;
    const { systems, accessories, steps } = await repository.model(groupId, deviceSn);
    const points = await commands.pointsOf(groupId, deviceSn);
    const ids = await repository.libraryIds(
      groupId,
      points.map((p) => p.key),
    );
    const offered = (types: (type: string) => boolean) =>
      points.flatMap((p) => {
        const id = ids.get(p.key);
        return id !== undefined && types(p.type) ? [{ Id: id, Key: p.key, Name: p.name, DataType: p.type }] : [];
      });
    return {
      DeviceSn: deviceSn,
      Switches: offered((type) => type === 'boolean'),
      Numbers: offered((type) => NUMBERS.has(type)),
      Systems: systems.map((s) => ({
        Id: s.id,
        DeviceSn: s.device_sn,
        Name: s.name,
        RestTime: s.rest_time,
        Accessories: accessories
          .filter((a) => a.system_id === s.id)
          .map((a) => ({ Id: a.id, DeviceSn: a.device_sn, SystemId: a.system_id, Name: a.name, ICON: a.icon })),
        Steps: steps
          .filter((c) => c.system_id === s.id)
          .map((c) => ({
            Id: c.id,
            AccessoryId: c.accessory_id,
            Accessory: c.accessory,
            ControlName: c.control_name,
            Key: c.key,
            KeyName: c.key_name,
            RunTime: c.data_value,
            ElapsedKey: c.elapsed_key,
            Sequence: c.sequence_in,
          })),
      })),
    };
  }

  /** Sends the device its whole run model. */
  async send(user: CurrentUser, deviceSn: string): Promise<SentCommand> {
    const model = await this.model(user.groupId, deviceSn);
    const config: RunModelConfig = {
      Systems: model.Systems.map((s) => ({
        Id: s.Id,
        Name: s.Name,
        RestTime: s.RestTime,
        Steps: s.Steps.map((c) => ({
          Accessory: c.Accessory,
          Key: c.Key,
          RunTime: c.RunTime,
          ...(c.ElapsedKey ? { ElapsedKey: c.ElapsedKey } : {}),
        })),
      })),
    };
    const shown = model.Systems.map(
      (s) => `${s.Name}: ${s.Steps.map((c) => `${c.Accessory} ${String(c.RunTime)} s`).join(' → ')}`,
    );
    return this.deps.commands.sendRunModel(user, deviceSn, {
      key: RUN_MODEL_KEYS.config,
      keyName: '',
      value: config,
      shown: shown.join('; '),
    });
  }

  /** Tells the device to hand a system's running step over to the next one now. */
  async rotate(user: CurrentUser, deviceSn: string, systemId: number): Promise<SentCommand> {
    const system = (await this.model(user.groupId, deviceSn)).Systems.find((s) => s.Id === systemId);
    if (!system) throw new AppError(400, 'ref.unknown', { what: 'SystemId', id: String(systemId) }, 'SystemId');
    if (system.Steps.length < 2) throw new AppError(409, 'runModel.nothingToRotate', { name: system.Name }, 'SystemId');
    return this.deps.commands.sendRunModel(user, deviceSn, {
      key: RUN_MODEL_KEYS.rotate,
      keyName: system.Name,
      value: system.Id,
      shown: String(system.Id),
    });
  }
}
