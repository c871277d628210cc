/**
 * Demo device types (DEMO only): a wastewater-station library (flow, level, pumps, blowers,
 * dosing, DO, COD / NH3-N / TN / TP / SS / pH in and out, energy, run time, control mode,
 * one-key stop, alarm reset), the type 'Village station (A/O)' with modules, controls,
 * statistics against GB 18918-2002 class 1A, Modbus hardware rows, a schema and a standard
 * template, equipment sub-types (lift pump, blower, dosing pump, analyser, flow meter), warn
 * types and codes linked to data keys.
 */
import { checkDataDefinition, type DataType } from '@sluice/shared/data-types';
import { parseFormula } from '@sluice/shared/formula';
import { GB18918_1A, STATION_KEYS as K } from '@sluice/shared/station-keys';
import type { Db } from '../db/database.ts';

interface DefineSeed {
  key: string;
  name: string;
  unit?: string;
  type: DataType;
  value?: string;
  format?: string;
  category: string;
}

const C = {
  flow: '流量',
  level: '液位',
  pumps: '泵',
  aeration: '曝气',
  dosing: '加药',
  quality: '水质',
  energy: '能耗',
  control: '控制',
  runtime: '运行时间',
  alarms: '报警',
  comm: '通讯',
};

const runStop = '{"0":"停止","1":"运行"}';
const fault = '{"0":"正常","1":"故障"}';
const autoManual = '{"0":"手动","1":"自动"}';
const decimals = (n: number) => JSON.stringify({ Decimals: n });

const LIBRARY: DefineSeed[] = [
  { key: K.time, name: '时间', type: 'datetime', category: C.control },
  { key: K.inflow, name: '进水流量', unit: 'm3/H', type: 'readable', format: decimals(2), category: C.flow },
  { key: K.flowTotal, name: '累计处理水量', unit: 'm3', type: 'readable', format: decimals(1), category: C.flow },
  { key: K.tankLevel, name: '调节池液位', unit: 'm', type: 'readable', format: decimals(2), category: C.level },
  {
    key: K.levelHighSet,
    name: '高液位设定',
    unit: 'm',
    type: 'textbox',
    value: '2.5',
    format: '{"Min":0,"Max":5,"Step":0.1,"Decimals":2}',
    category: `${C.level},${C.control}`,
  },
  {
    key: K.levelLowSet,
    name: '低液位设定',
    unit: 'm',
    type: 'textbox',
    value: '0.8',
    format: '{"Min":0,"Max":5,"Step":0.1,"Decimals":2}',
    category: `${C.level},${C.control}`,
  },
  {
    key: K.levelHighAlarm,
    name: '高液位报警',
    type: 'boolean2',
    format: '{"0":"正常","1":"报警"}',
    category: `${C.level},${C.alarms}`,
  },
  { key: K.liftPump1Run, name: '1#提升泵运行', type: 'boolean', value: '0', format: runStop, category: C.pumps },
  {
    key: K.liftPump1Fault,
    name: '1#提升泵故障',
    type: 'boolean2',
    format: fault,
    category: `${C.pumps},${C.alarms}`,
  },
  { key: K.liftPump1Auto, name: '1#提升泵手自动', type: 'boolean2', format: autoManual, category: C.pumps },
  { key: K.liftPump2Run, name: '2#提升泵运行', type: 'boolean', value: '0', format: runStop, category: C.pumps },
  {
    key: K.liftPump2Fault,
    name: '2#提升泵故障',
    type: 'boolean2',
    format: fault,
    category: `${C.pumps},${C.alarms}`,
  },
  { key: K.liftPump2Auto, name: '2#提升泵手自动', type: 'boolean2', format: autoManual, category: C.pumps },
  // Where a station reports a lift pump's turn of a duty/standby rotation (the run model's elapsed point).
  {
    key: K.liftPump1Elapsed,
    name: '1#提升泵本轮运行',
    unit: 's',
    type: 'readable',
    format: decimals(0),
    category: C.pumps,
  },
  {
    key: K.liftPump2Elapsed,
    name: '2#提升泵本轮运行',
    unit: 's',
    type: 'readable',
    format: decimals(0),
    category: C.pumps,
  },
  { key: K.blower1Run, name: '1#风机运行', type: 'boolean', value: '0', format: runStop, category: C.aeration },
  {
    key: K.blower1Fault,
    name: '1#风机故障',
    type: 'boolean2',
    format: fault,
    category: `${C.aeration},${C.alarms}`,
  },
  { key: K.blower2Run, name: '2#风机运行', type: 'boolean', value: '0', format: runStop, category: C.aeration },
  {
    key: K.blower2Fault,
    name: '2#风机故障',
    type: 'boolean2',
    format: fault,
    category: `${C.aeration},${C.alarms}`,
  },
  {
    key: K.blowerOnTime,
    name: '风机运行时长',
    unit: 's',
    type: 'textbox',
    value: '1800',
    format: '{"Min":10,"Max":86400,"Step":1,"Decimals":0}',
    category: `${C.aeration},${C.control}`,
  },
  {
    key: K.blowerOffTime,
    name: '风机停止时长',
    unit: 's',
    type: 'textbox',
    value: '900',
    format: '{"Min":10,"Max":86400,"Step":1,"Decimals":0}',
    category: `${C.aeration},${C.control}`,
  },
  {
    key: K.blowerOnElapsed,
    name: '风机已运行',
    unit: 's',
    type: 'readable',
    format: decimals(0),
    category: C.aeration,
  },
  {
    key: K.blowerOffElapsed,
    name: '风机已停止',
    unit: 's',
    type: 'readable',
    format: decimals(0),
    category: C.aeration,
  },
  {
    key: K.dissolvedOxygen,
    name: '溶解氧',
    unit: 'mg/L',
    type: 'readable',
    format: decimals(2),
    category: `${C.aeration},${C.quality}`,
  },
  {
    key: K.dissolvedOxygenSet,
    name: '溶解氧设定',
    unit: 'mg/L',
    type: 'textbox',
    value: '2',
    format: '{"Min":0,"Max":8,"Step":0.1,"Decimals":1}',
    category: `${C.aeration},${C.control}`,
  },
  { key: K.dosingPumpRun, name: '加药泵运行', type: 'boolean', value: '0', format: runStop, category: C.dosing },
  {
    key: K.dosingPumpFault,
    name: '加药泵故障',
    type: 'boolean2',
    format: fault,
    category: `${C.dosing},${C.alarms}`,
  },
  {
    key: K.dosingRate,
    name: '加药泵频率',
    unit: 'HZ',
    type: 'textbox',
    value: '25',
    format: '{"Min":0,"Max":50,"Step":1,"Decimals":0}',
    category: `${C.dosing},${C.control}`,
  },
  { key: K.codIn, name: '进水COD', unit: 'mg/L', type: 'readable', format: decimals(1), category: C.quality },
  { key: K.codOut, name: '出水COD', unit: 'mg/L', type: 'readable', format: decimals(1), category: C.quality },
  { key: K.nh3nIn, name: '进水氨氮', unit: 'mg/L', type: 'readable', format: decimals(2), category: C.quality },
  { key: K.nh3nOut, name: '出水氨氮', unit: 'mg/L', type: 'readable', format: decimals(2), category: C.quality },
  { key: K.tnIn, name: '进水总氮', unit: 'mg/L', type: 'readable', format: decimals(2), category: C.quality },
  { key: K.tnOut, name: '出水总氮', unit: 'mg/L', type: 'readable', format: decimals(2), category: C.quality },
  { key: K.tpIn, name: '进水总磷', unit: 'mg/L', type: 'readable', format: decimals(3), category: C.quality },
  { key: K.tpOut, name: '出水总磷', unit: 'mg/L', type: 'readable', format: decimals(3), category: C.quality },
  { key: K.ssIn, name: '进水悬浮物', unit: 'mg/L', type: 'readable', format: decimals(1), category: C.quality },
  { key: K.ssOut, name: '出水悬浮物', unit: 'mg/L', type: 'readable', format: decimals(1), category: C.quality },
  { key: K.phIn, name: '进水pH', type: 'readable', format: decimals(2), category: C.quality },
  { key: K.phOut, name: '出水pH', type: 'readable', format: decimals(2), category: C.quality },
  {
    key: K.analyserFault,
    name: '在线监测仪故障',
    type: 'boolean2',
    format: fault,
    category: `${C.quality},${C.alarms}`,
  },
  { key: K.energy, name: '累计电量', unit: 'kW·h', type: 'readable', format: decimals(1), category: C.energy },
  {
    key: K.runTimeYear,
    name: '年运行时间',
    unit: 'h',
    type: 'readable',
    format: decimals(1),
    category: C.runtime,
  },
  {
    key: K.runTimeMonth,
    name: '月运行时间',
    unit: 'h',
    type: 'readable',
    format: decimals(1),
    category: C.runtime,
  },
  { key: K.runTimeDay, name: '日运行时间', unit: 'h', type: 'readable', format: decimals(1), category: C.runtime },
  {
    key: K.controlMode,
    name: '控制模式',
    type: 'enum',
    value: '1',
    format: '{"0":"手动","1":"自动","2":"自检"}',
    category: C.control,
  },
  {
    key: K.oneKeyStop,
    name: '一键停止',
    type: 'boolean',
    value: '0',
    format: '{"0":"正常","1":"停止"}',
    category: C.control,
  },
  {
    key: K.alarmReset,
    name: '报警复位',
    type: 'boolean',
    value: '0',
    format: '{"0":"—","1":"复位"}',
    category: `${C.control},${C.alarms}`,
  },
  { key: K.deviceVersion, name: '设备版本', type: 'string', category: C.comm },
  { key: K.baudRate, name: '波特率', type: 'select', value: '9600', category: C.comm },
  {
    key: K.reportInterval,
    name: '上报间隔',
    unit: 's',
    type: 'textbox',
    value: '60',
    format: '{"Min":10,"Max":3600,"Step":10,"Decimals":0}',
    category: C.comm,
  },
];

/** View modes of a type's data points: 0 detection (water quality), 1 monitoring, 2 status. */
const QUALITY = new Set<string>([
  K.codIn,
  K.codOut,
  K.nh3nIn,
  K.nh3nOut,
  K.tnIn,
  K.tnOut,
  K.tpIn,
  K.tpOut,
  K.ssIn,
  K.ssOut,
  K.phIn,
  K.phOut,
  K.dissolvedOxygen,
]);
const viewOf = (d: DefineSeed) => (QUALITY.has(d.key) ? 0 : d.type.startsWith('boolean') || d.type === 'enum' ? 2 : 1);

export const DEMO_STATION_TYPE = '村级污水站 (A/O)';

/** What each controllable piece of equipment's controller takes (spec §3 special data keys). */
const CONTROL_KEYS = [K.controlMode, K.oneKeyStop, K.alarmReset, K.deviceVersion];

/**
 * Equipment types below the station type, each with the data points of one piece of equipment;
 * `code` is the equipment part of a demo device's number (QS1-LP1: a lift pump).
 */
const EQUIPMENT: { code: string; name: string; keys: string[]; icon: string }[] = [
  {
    code: 'LP',
    name: '提升泵',
    icon: 'pump',
    keys: [
      K.liftPump1Run,
      K.liftPump1Fault,
      K.liftPump1Auto,
      K.tankLevel,
      K.levelHighSet,
      K.levelLowSet,
      K.runTimeDay,
      K.runTimeMonth,
      K.runTimeYear,
      K.energy,
      ...CONTROL_KEYS,
    ],
  },
  {
    code: 'BL',
    name: '曝气风机',
    icon: 'blower',
    keys: [
      K.blower1Run,
      K.blower1Fault,
      K.blowerOnTime,
      K.blowerOffTime,
      K.blowerOnElapsed,
      K.blowerOffElapsed,
      K.dissolvedOxygen,
      K.dissolvedOxygenSet,
      K.runTimeDay,
      K.energy,
      ...CONTROL_KEYS,
    ],
  },
  {
    code: 'DP',
    name: '加药泵',
    icon: 'dosing',
    keys: [K.dosingPumpRun, K.dosingPumpFault, K.dosingRate, K.runTimeDay, ...CONTROL_KEYS],
  },
  {
    code: 'AN',
    name: '在线监测仪',
    icon: 'analyser',
    keys: [K.codOut, K.nh3nOut, K.tnOut, K.tpOut, K.ssOut, K.phOut, K.analyserFault],
  },
  { code: 'FM', name: '流量计', icon: 'flow', keys: [K.inflow, K.flowTotal] },
];

interface ControlSeed {
  name: string;
  key: string;
  show: string;
  cls: 'equipment' | 'setPoint';
  formula?: string;
  unit?: string;
  feedback?: string[];
}
interface ModuleSeed {
  name: string;
  type: string;
  controls: ControlSeed[];
  args?: [string, string][];
}

/** The station type's modules and controls; an equipment type gets those of its own data points. */
const STATION_MODULES: ModuleSeed[] = [
  {
    name: '提升泵',
    type: 'pump',
    controls: [
      {
        name: '1#提升泵',
        key: K.liftPump1Run,
        show: 'switch',
        cls: 'equipment',
        feedback: [K.liftPump1Run, K.liftPump1Fault, K.liftPump1Auto],
      },
      {
        name: '2#提升泵',
        key: K.liftPump2Run,
        show: 'switch',
        cls: 'equipment',
        feedback: [K.liftPump2Run, K.liftPump2Fault, K.liftPump2Auto],
      },
      {
        name: '高液位',
        key: K.levelHighSet,
        show: 'input',
        cls: 'setPoint',
        unit: 'm',
        formula: JSON.stringify({ SettingValue: K.levelHighSet, CurrentValue: K.tankLevel }),
      },
      {
        name: '低液位',
        key: K.levelLowSet,
        show: 'input',
        cls: 'setPoint',
        unit: 'm',
        formula: JSON.stringify({ SettingValue: K.levelLowSet, CurrentValue: K.tankLevel }),
      },
    ],
    args: [
      [K.liftPump1Fault, '1#泵故障'],
      [K.liftPump2Fault, '2#泵故障'],
    ],
  },
  {
    name: '曝气',
    type: 'blower',
    controls: [
      {
        name: '1#风机',
        key: K.blower1Run,
        show: 'switch',
        cls: 'equipment',
        feedback: [K.blower1Run, K.blower1Fault],
      },
      {
        name: '2#风机',
        key: K.blower2Run,
        show: 'switch',
        cls: 'equipment',
        feedback: [K.blower2Run, K.blower2Fault],
      },
      // The cycle's phases count down on the console (spec §4 countdown).
      {
        name: '运行时长',
        key: K.blowerOnTime,
        show: 'time',
        cls: 'setPoint',
        unit: 's',
        formula: `${K.blowerOnTime}||${K.blowerOnElapsed}`,
      },
      {
        name: '停止时长',
        key: K.blowerOffTime,
        show: 'time',
        cls: 'setPoint',
        unit: 's',
        formula: `${K.blowerOffTime}||${K.blowerOffElapsed}`,
      },
      {
        name: '溶解氧',
        key: K.dissolvedOxygenSet,
        show: 'input',
        cls: 'setPoint',
        unit: 'mg/L',
        formula: `${K.dissolvedOxygenSet}||${K.dissolvedOxygen}`,
      },
    ],
    args: [[K.dissolvedOxygen, '好氧池溶解氧']],
  },
  {
    name: '加药',
    type: 'dosing',
    controls: [
      {
        name: 'PAC加药泵',
        key: K.dosingPumpRun,
        show: 'switch',
        cls: 'equipment',
        feedback: [K.dosingPumpRun, K.dosingPumpFault],
      },
      { name: '加药频率', key: K.dosingRate, show: 'input', cls: 'setPoint', unit: 'HZ' },
    ],
  },
  {
    name: '全站',
    type: 'station',
    controls: [
      { name: '控制模式', key: K.controlMode, show: 'select', cls: 'setPoint' },
      { name: '一键停止', key: K.oneKeyStop, show: 'button', cls: 'equipment' },
      { name: '报警复位', key: K.alarmReset, show: 'button', cls: 'equipment' },
    ],
  },
];

/** The modules a type of these data points gets: the station's, keeping the controls (and feedback) of its keys. */
function modulesOf(keys: readonly string[]): ModuleSeed[] {
  const has = new Set(keys);
  return STATION_MODULES.map((m) => ({
    ...m,
    controls: m.controls
      .filter((c) => has.has(c.key) && (c.formula === undefined || parseFormulaKeys(c.formula).every((k) => has.has(k))))
      .map((c) => ({ ...c, ...(c.feedback ? { feedback: c.feedback.filter((k) => has.has(k)) } : {}) })),
    args: (m.args ?? []).filter(([key]) => has.has(key)),
  })).filter((m) => m.controls.length > 0);
}

const parseFormulaKeys = (formula: string): string[] => {
  const parsed = parseFormula(formula);
  return parsed ? [parsed.SettingValue, parsed.CurrentValue] : [];
};

/** A type's module classes, modules, controls, feedback and module arguments. */
async function seedModules(
  trx: Db,
  t: { group_id: number; type_id: number },
  modules: ModuleSeed[],
  id: (key: string) => number,
) {
  const classOf = async (name: string, rank: number) =>
    (
      await trx
        .insertInto('type_classes')
        .values({ ...t, name, rank })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const classes = { equipment: await classOf('设备', 1), setPoint: await classOf('设定值', 2) };
  for (const [moduleIndex, m] of modules.entries()) {
    const { id: moduleId } = await trx
      .insertInto('type_modules')
      .values({ ...t, module_name: m.name, module_type: m.type, sn: moduleIndex + 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [i, c] of m.controls.entries()) {
      const define = LIBRARY.find((d) => d.key === c.key);
      const { id: controlId } = await trx
        .insertInto('type_module_controls')
        .values({
          ...t,
          module_id: moduleId,
          control_key: c.key,
          control_name: c.name,
          data_define_id: id(c.key),
          show_type: c.show,
          format: define ? checkDataDefinition({ DataType: define.type, Format: define.format }).format : '',
          unit: c.unit ?? '',
          auto_control: 0,
          formula: c.formula ?? '',
          data_value: define?.value ?? '',
          sn: i + 1,
          class_id: classes[c.cls],
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const [f, key] of (c.feedback ?? []).entries()) {
        await trx
          .insertInto('type_module_feedbacks')
          .values({ ...t, module_control_id: controlId, data_define_id: id(key), sn: f + 1 })
          .execute();
      }
    }
    for (const [key, name] of m.args ?? []) {
      await trx
        .insertInto('type_module_arguments')
        .values({ ...t, module_id: moduleId, data_define_id: id(key), name, category: C.alarms })
        .execute();
    }
  }
}

export interface DemoDeviceTypes {
  stationTypeId: number;
  /** The equipment type of each equipment code (LP, BL, DP, AN, FM). */
  equipmentTypeIds: ReadonlyMap<string, number>;
}

export async function seedDemoDeviceTypes(db: Db, groupId: number): Promise<DemoDeviceTypes> {
  return db.transaction().execute(async (trx) => {
    const g = { group_id: groupId };
    for (const name of Object.values(C))
      await trx
        .insertInto('data_categories')
        .values({ ...g, name })
        .execute();

    const ids = new Map<string, number>();
    for (const d of LIBRARY) {
      const checked = checkDataDefinition({ DataType: d.type, DefaultValue: d.value, Format: d.format });
      if (checked.issues.length > 0) throw new Error(`Demo data point ${d.key}: ${JSON.stringify(checked.issues)}`);
      const { id } = await trx
        .insertInto('data_defines')
        .values({
          ...g,
          data_key: d.key,
          data_name: d.name,
          unit: d.unit ?? '',
          data_type: d.type,
          default_value: d.value ?? '',
          format: checked.format,
          model: 'SL-A/O-100',
          category: d.category,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.set(d.key, id);
    }
    const id = (key: string) => {
      const found = ids.get(key);
      if (found === undefined) throw new Error(`No demo data point ${key}`);
      return found;
    };

    // ---- Warn types, codes and their links to data points ----------------------------------
    const warnType = async (type_name: string, color: string, icon: string) =>
      (
        await trx
          .insertInto('warn_types')
          .values({ ...g, type_name, color, icon })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const alarm = await warnType('报警', '#faad14', 'warning');
    const faultType = await warnType('故障', '#f5222d', 'tool');
    const offline = await warnType('离线', '#8c8c8c', 'disconnect');
    const codes: [string, number, string, string | undefined][] = [
      ['E101', faultType, '1#提升泵故障', K.liftPump1Fault],
      ['E102', faultType, '2#提升泵故障', K.liftPump2Fault],
      ['E201', faultType, '1#风机故障', K.blower1Fault],
      ['E202', faultType, '2#风机故障', K.blower2Fault],
      ['E301', faultType, '加药泵故障', K.dosingPumpFault],
      ['E401', faultType, '在线监测仪故障', K.analyserFault],
      ['A101', alarm, '调节池高液位', K.levelHighAlarm],
      ['A201', alarm, '出水COD超标', K.codOut],
      ['A202', alarm, '出水氨氮超标', K.nh3nOut],
      ['A203', alarm, '出水总磷超标', K.tpOut],
      ['O001', offline, '设备离线', undefined],
    ];
    for (const [code, warn_type_id, description, key] of codes) {
      await trx
        .insertInto('warn_codes')
        .values({ ...g, warn_type_id, code, description })
        .execute();
      if (key)
        await trx
          .insertInto('data_define_warn_codes')
          .values({ ...g, data_key: key, code })
          .execute();
    }

    // ---- The station type -----------------------------------------------------------------
    const { id: typeId } = await trx
      .insertInto('device_types')
      .values({
        ...g,
        type_name: DEMO_STATION_TYPE,
        icon: 'station',
        parent_id: 0,
        description: '村级一体化污水处理站，A/O 工艺，设计规模 100 m³/d。',
        status: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const t = { ...g, type_id: typeId };
    const typeDefine = new Map<string, number>();
    for (const d of LIBRARY) {
      const row = await trx
        .insertInto('type_data_defines')
        .values({ ...t, data_define_id: id(d.key), auto_control: 0, out_key: '', show_type: viewOf(d) })
        .returning('id')
        .executeTakeFirstOrThrow();
      typeDefine.set(d.key, row.id);
    }

    await seedModules(trx, t, STATION_MODULES, id);

    const icons: [string, string, string][] = [
      ['1#提升泵', K.liftPump1Run, 'pump'],
      ['2#提升泵', K.liftPump2Run, 'pump'],
      ['1#风机', K.blower1Run, 'blower'],
      ['2#风机', K.blower2Run, 'blower'],
      ['加药泵', K.dosingPumpRun, 'dosing'],
      ['高液位', K.levelHighAlarm, 'level'],
    ];
    for (const [i, [name, key, icon]] of icons.entries()) {
      await trx
        .insertInto('type_display_icons')
        .values({ ...t, name, sn: i + 1, data_define_id: id(key), icon, data_define_key: key })
        .execute();
    }
    for (const [i, key] of [K.inflow, K.flowTotal, K.tankLevel, K.codOut, K.nh3nOut, K.energy].entries()) {
      const define = LIBRARY.find((d) => d.key === key);
      await trx
        .insertInto('type_overviews')
        .values({ ...t, type_data_define_id: typeDefine.get(key) ?? 0, name: define?.name ?? key, sn: i + 1 })
        .execute();
    }

    // Modbus RTU to the station PLC (slave 1): analog values as float32 holding registers, flags as
    // bits of status registers, set-points as holding registers.
    const analog: [string, number, number | null, number | null][] = [
      [K.inflow, 0, 0, 50],
      [K.flowTotal, 2, 0, null],
      [K.tankLevel, 4, 0, 5],
      [K.dissolvedOxygen, 6, 0, 20],
      [K.codIn, 8, 0, 1000],
      [K.codOut, 10, 0, 500],
      [K.nh3nIn, 12, 0, 100],
      [K.nh3nOut, 14, 0, 50],
      [K.tnIn, 16, 0, 100],
      [K.tnOut, 18, 0, 50],
      [K.tpIn, 20, 0, 20],
      [K.tpOut, 22, 0, 10],
      [K.ssIn, 24, 0, 500],
      [K.ssOut, 26, 0, 200],
      [K.phIn, 28, 0, 14],
      [K.phOut, 30, 0, 14],
      [K.energy, 32, 0, null],
    ];
    const flags = [
      K.liftPump1Run,
      K.liftPump1Fault,
      K.liftPump1Auto,
      K.liftPump2Run,
      K.liftPump2Fault,
      K.liftPump2Auto,
      K.blower1Run,
      K.blower1Fault,
      K.blower2Run,
      K.blower2Fault,
      K.dosingPumpRun,
      K.dosingPumpFault,
      K.analyserFault,
      K.levelHighAlarm,
    ];
    const setPoints = [
      K.levelHighSet,
      K.levelLowSet,
      K.blowerOnTime,
      K.blowerOffTime,
      K.dissolvedOxygenSet,
      K.dosingRate,
      K.controlMode,
    ];
    const link = { comm: 'RTU', port: 'COM1', modbus_slave: 1, plc_type: 'S7-200 SMART' };
    let sn = 0;
    for (const [key, reg, min, max] of analog) {
      sn++;
      await trx
        .insertInto('type_hardware_configs')
        .values({
          ...t,
          ...link,
          data_define_id: id(key),
          no: `AI${String(sn).padStart(2, '0')}`,
          sn,
          show_key: key,
          key_type: 'float32',
          max_value: max,
          min_value: min,
          reg_ad: reg,
          cmd: 3,
          address: String(40001 + reg),
          bit_off_set: 0,
          lens: 2,
        })
        .execute();
    }
    for (const [i, key] of flags.entries()) {
      sn++;
      const reg = 100 + Math.floor(i / 16);
      await trx
        .insertInto('type_hardware_configs')
        .values({
          ...t,
          ...link,
          data_define_id: id(key),
          no: `DI${String(i + 1).padStart(2, '0')}`,
          sn,
          show_key: key,
          key_type: 'bit',
          max_value: 1,
          min_value: 0,
          reg_ad: reg,
          cmd: 3,
          address: `${String(40001 + reg)}.${String(i % 16)}`,
          bit_off_set: i % 16,
          lens: 1,
        })
        .execute();
    }
    for (const [i, key] of setPoints.entries()) {
      sn++;
      await trx
        .insertInto('type_hardware_configs')
        .values({
          ...t,
          ...link,
          data_define_id: id(key),
          no: `AO${String(i + 1).padStart(2, '0')}`,
          sn,
          show_key: key,
          key_type: 'uint16',
          max_value: null,
          min_value: 0,
          reg_ad: 200 + i,
          cmd: 3,
          address: String(40201 + i),
          bit_off_set: 0,
          lens: 1,
        })
        .execute();
    }

    // The process as a tree.
    const node = async (name: string, value: string, parentId: number, key?: string) =>
      (
        await trx
          .insertInto('type_schemas')
          .values({ ...t, name, value, schema_type: 'process', parent_id: parentId, data_define_id: key ? id(key) : null })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const process = await node('A/O 工艺', '100 m³/d', 0);
    await node('格栅', '', process);
    await node('调节池', '', process, K.tankLevel);
    await node('缺氧池', '', process);
    const aerobic = await node('好氧池', '', process, K.dissolvedOxygen);
    await node('1#风机', '', aerobic, K.blower1Run);
    await node('2#风机', '', aerobic, K.blower2Run);
    await node('二沉池', '', process);
    await node('出水', '', process, K.flowTotal);

    // Statistics, with the GB 18918-2002 class 1A limits on the effluent.
    const stats: [string, string, 'instantaneous' | 'cumulative' | 'discrete', string, string, string][] = [
      [K.flowTotal, '处理水量', 'cumulative', '', '0,100000', 'm3'],
      [K.energy, '用电量', 'cumulative', '', '0,10000', 'kW·h'],
      [K.inflow, '进水流量', 'instantaneous', '', '', 'm3/H'],
      [K.tankLevel, '调节池液位', 'instantaneous', '', '', 'm'],
      [K.dissolvedOxygen, '溶解氧', 'instantaneous', '', '', 'mg/L'],
      [K.codOut, '出水COD', 'discrete', GB18918_1A[K.codOut] ?? '', '0,1000', 'mg/L'],
      [K.nh3nOut, '出水氨氮', 'discrete', GB18918_1A[K.nh3nOut] ?? '', '0,100', 'mg/L'],
      [K.tnOut, '出水总氮', 'discrete', GB18918_1A[K.tnOut] ?? '', '0,100', 'mg/L'],
      [K.tpOut, '出水总磷', 'discrete', GB18918_1A[K.tpOut] ?? '', '0,20', 'mg/L'],
      [K.ssOut, '出水悬浮物', 'discrete', GB18918_1A[K.ssOut] ?? '', '0,500', 'mg/L'],
      [K.phOut, '出水pH', 'discrete', GB18918_1A[K.phOut] ?? '', '0,14', ''],
    ];
    for (const [key, name, statics_type, standard, filter, unit] of stats) {
      await trx
        .insertInto('type_statistics')
        .values({
          ...t,
          stat_key: key,
          data_define_id: id(key),
          statics_type,
          display_type: statics_type === 'discrete' ? 'table' : 'chart',
          standard,
          filter_value: filter,
          filter_type: filter ? 'range' : 'none',
          show_state: 1,
          s_unit: unit,
          name,
        })
        .execute();
    }

    await trx
      .insertInto('type_configs')
      .values([
        { ...t, data_name: '通讯波特率', data_type: 'select', data_value: '9600', category: C.comm, position: '1' },
        {
          ...t,
          data_name: '上报间隔(s)',
          data_type: 'textbox',
          data_value: '60',
          category: C.comm,
          position: '2',
        },
        {
          ...t,
          data_name: '设计规模(m³/d)',
          data_type: 'textbox',
          data_value: '100',
          category: '工艺',
          position: '3',
        },
      ])
      .execute();
    await trx
      .insertInto('type_arguments')
      .values([
        { ...t, define_id: id(K.inflow), name: '进水流量', category: '工艺' },
        { ...t, define_id: id(K.controlMode), name: '控制模式', category: C.control },
      ])
      .execute();

    // ---- The standard template ----------------------------------------------------------------
    const { id: tempId } = await trx
      .insertInto('type_templates')
      .values({ ...t, temp_name: '标准模板', is_standard: 1, device_sn: '' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const tp = { ...g, temp_id: tempId };
    const panel = async (panel_name: string, panel_type_id: number, sn: number) =>
      (
        await trx
          .insertInto('template_panels')
          .values({ ...tp, panel_name, panel_type_id, sn })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const qualityPanel = await panel('水质', 2, 1);
    const statusPanel = await panel('运行数据', 4, 2);
    await panel('设备控制', 7, 3);
    await panel('故障', 8, 4);
    await panel('配置', 9, 5);
    await panel('图片', 5, 6);
    await panel('视频', 6, 7);
    for (const d of LIBRARY) {
      if (d.key === K.time) continue;
      const checked = checkDataDefinition({ DataType: d.type, DefaultValue: d.value, Format: d.format });
      await trx
        .insertInto('template_profiles')
        .values({
          ...tp,
          panel_id: QUALITY.has(d.key) ? qualityPanel : statusPanel,
          data_type: d.type,
          data_key: d.key,
          display_key: d.key,
          data_name: d.name,
          unit: d.unit ?? '',
          default_value: d.value ?? '',
          format: checked.format,
          auto_control: 0,
        })
        .execute();
    }
    await trx
      .insertInto('template_args')
      .values([
        { ...tp, data_name: '上报间隔(s)', data_type: 'textbox', data_value: '60' },
        { ...tp, data_name: '设计规模(m³/d)', data_type: 'textbox', data_value: '100' },
      ])
      .execute();
    const accessory = async (name: string, icon: string) =>
      (
        await trx
          .insertInto('template_accessories')
          .values({ ...tp, name, icon })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const blower1 = await accessory('1#风机', 'blower');
    const blower2 = await accessory('2#风机', 'blower');
    await accessory('1#提升泵', 'pump');
    await accessory('2#提升泵', 'pump');
    // The aeration cycle: each blower runs for the on time, then rests for the off time.
    const cycle: [string, string, string, string, number][] = [
      ['1#风机开', '1', K.blower1Run, K.blowerOnTime, blower1],
      ['1#风机停', '0', K.blower1Run, K.blowerOffTime, blower1],
      ['2#风机开', '1', K.blower2Run, K.blowerOnTime, blower2],
      ['2#风机停', '0', K.blower2Run, K.blowerOffTime, blower2],
    ];
    for (const [i, [control_name, data_value, data_define_key, associate_key, accessory_id]] of cycle.entries()) {
      await trx
        .insertInto('template_control_data')
        .values({
          ...tp,
          control_name,
          data_value,
          data_define_key,
          associate_key,
          sequence_in: i + 1,
          sequence_out: i + 1,
          i_state: 0,
          accessory_id,
        })
        .execute();
    }
    await trx
      .insertInto('template_configs')
      .values([
        { ...tp, category: C.comm, define_key: K.baudRate, name: '通讯波特率' },
        { ...tp, category: C.control, define_key: K.controlMode, name: '控制模式' },
      ])
      .execute();

    // ---- Equipment types below the station, each with its own standard template ---------------------
    const equipmentTypeIds = new Map<string, number>();
    for (const e of EQUIPMENT) {
      const { id: equipmentId } = await trx
        .insertInto('device_types')
        .values({
          ...g,
          type_name: e.name,
          icon: e.icon,
          parent_id: typeId,
          description: `${DEMO_STATION_TYPE}的设备`,
          status: 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      equipmentTypeIds.set(e.code, equipmentId);
      const { id: equipmentTemp } = await trx
        .insertInto('type_templates')
        .values({ ...g, type_id: equipmentId, temp_name: '标准模板', is_standard: 1, device_sn: '' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { id: dataPanel } = await trx
        .insertInto('template_panels')
        .values({ ...g, temp_id: equipmentTemp, panel_name: '数据', panel_type_id: 2, sn: 1 })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const key of e.keys) {
        const d = LIBRARY.find((x) => x.key === key);
        if (!d) continue;
        await trx
          .insertInto('type_data_defines')
          .values({ ...g, type_id: equipmentId, data_define_id: id(key), show_type: viewOf(d) })
          .execute();
        await trx
          .insertInto('template_profiles')
          .values({
            ...g,
            temp_id: equipmentTemp,
            panel_id: dataPanel,
            data_type: d.type,
            data_key: d.key,
            display_key: d.key,
            data_name: d.name,
            unit: d.unit ?? '',
            default_value: d.value ?? '',
            format: checkDataDefinition({ DataType: d.type, DefaultValue: d.value, Format: d.format }).format,
          })
          .execute();
      }
      await seedModules(trx, { ...g, type_id: equipmentId }, modulesOf(e.keys), id);
    }
    return { stationTypeId: typeId, equipmentTypeIds };
  });
}
