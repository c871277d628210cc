/**
 * The definition a command to a device's data point is checked against (docs/decisions.md,
 * Commands): the device's own data point (DeviceDataDefine) when it has one for the key; else
 * its type's control of the key (TypeModuleControl: the library point's data type, with the
 * control's Format and Unit where it sets them); else the type's data point (the library's).
 * The type's control also says how the point shows (ShowType), which tells a minute from a
 * metre. Read fresh for every command: a limit changed a moment ago must hold at once.
 */
import type { ControlDefinition } from '@sluice/shared/control-values';
import type { Db } from '../../db/database.ts';
import type { KnownDevice } from '../telemetry/device-directory.ts';

export interface GoverningDefinition {
  /** The data point's name, for the device log and messages. */
  name: string;
  definition: ControlDefinition;
  source: 'device' | 'control' | 'type';
}

export interface TypeModuleRows {
  modules: { id: number; module_name: string; module_type: string; sn: number }[];
  controls: { id: number; moduleId: number; key: string; name: string; formula: string; sn: number }[];
  feedbacks: { controlId: number; key: string }[];
}

export class ControlDefinitionsRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async of(device: KnownDevice, key: string): Promise<GoverningDefinition | undefined> {
    const own = await this.db
      .selectFrom('device_data_defines')
      .select(['data_name', 'data_type', 'format', 'unit'])
      .where('group_id', '=', device.groupId)
      .where('device_sn', '=', device.deviceSn)
      .where('data_key', '=', key)
      .orderBy('id')
      .executeTakeFirst();
    const control = device.typeId === null ? undefined : await this.typeControl(device.groupId, device.typeId, key);
    if (own) {
      return {
        name: own.data_name,
        definition: { dataType: own.data_type, format: own.format, unit: own.unit, showType: control?.show_type },
        source: 'device',
      };
    }
    if (control) {
      return {
        name: control.control_name,
        definition: {
          dataType: control.data_type,
          format: control.format !== '' ? control.format : control.library_format,
          unit: control.unit !== '' ? control.unit : control.library_unit,
          showType: control.show_type,
        },
        source: 'control',
      };
    }
    if (device.typeId === null) return undefined;
    const part = await this.db
      .selectFrom('type_data_defines as t')
      .innerJoin('data_defines as d', 'd.id', 't.data_define_id')
      .select(['d.data_name', 'd.data_type', 'd.format', 'd.unit'])
      .where('t.group_id', '=', device.groupId)
      .where('t.type_id', '=', device.typeId)
      .where('d.data_key', '=', key)
      .executeTakeFirst();
    return (
      part && {
        name: part.data_name,
        definition: { dataType: part.data_type, format: part.format, unit: part.unit },
        source: 'type',
      }
    );
  }

  /** The modules of a type, in order, with their controls (keys from the library where unset) and feedback keys. */
  async typeModules(groupId: number, typeId: number): Promise<TypeModuleRows> {
    const modules = await this.db
      .selectFrom('type_modules')
      .select(['id', 'module_name', 'module_type', 'sn'])
      .where('group_id', '=', groupId)
      .where('type_id', '=', typeId)
      .orderBy('sn')
      .orderBy('id')
      .execute();
    const controls = await this.db
      .selectFrom('type_module_controls as c')
      .innerJoin('data_defines as d', 'd.id', 'c.data_define_id')
      .select(['c.id', 'c.module_id', 'c.control_key', 'd.data_key', 'c.control_name', 'c.formula', 'c.sn'])
      .where('c.group_id', '=', groupId)
      .where('c.type_id', '=', typeId)
      .orderBy('c.sn')
      .orderBy('c.id')
      .execute();
    const feedbacks = await this.db
      .selectFrom('type_module_feedbacks as f')
      .innerJoin('data_defines as d', 'd.id', 'f.data_define_id')
      .select(['f.module_control_id', 'd.data_key'])
      .where('f.group_id', '=', groupId)
      .where('f.type_id', '=', typeId)
      .orderBy('f.sn')
      .orderBy('f.id')
      .execute();
    return {
      modules,
      controls: controls.map((c) => ({
        id: c.id,
        moduleId: c.module_id,
        key: c.control_key !== '' ? c.control_key : c.data_key,
        name: c.control_name,
        formula: c.formula,
        sn: c.sn,
      })),
      feedbacks: feedbacks.map((f) => ({ controlId: f.module_control_id, key: f.data_key })),
    };
  }

  private typeControl(groupId: number, typeId: number, key: string) {
    return this.db
      .selectFrom('type_module_controls as c')
      .innerJoin('data_defines as d', 'd.id', 'c.data_define_id')
      .select([
        'c.control_name',
        'c.show_type',
        'c.format',
        'c.unit',
        'd.data_type',
        'd.format as library_format',
        'd.unit as library_unit',
      ])
      .where('c.group_id', '=', groupId)
      .where('c.type_id', '=', typeId)
      .where('c.control_key', '=', key)
      .orderBy('c.sn')
      .orderBy('c.id')
      .executeTakeFirst();
  }
}
