/**
 * Device types and everything under them (spec §3 Device type, TypeDataDefine, Hardware config,
 * Type statistics, Type schema, Type module, Control, Module feedback, Display icon, Type
 * config, Type argument, Type overview, Module class, Module argument, TypeImage; §7 Device
 * types). Sub-resources live under type/{typeId}/….
 */
import { z } from 'zod';
import { DATA_TYPES, checkValue, normalizeFormat } from './data-types.ts';
import { dataDefineDto, dataTypeField } from './data-define.schema.ts';
import { isValidFormula } from './formula.ts';
import {
  BIT_OFFSET_MAX,
  FUNCTION_CODES,
  MODBUS_SLAVE_MAX,
  MODBUS_SLAVE_MIN,
  READ_FUNCTIONS,
  REGISTER_MAX,
  REGISTER_TYPES,
  WRITE_FUNCTIONS,
} from './modbus.ts';
import { fileVersion, messageRef, optional } from './rules.ts';
import { dataKey, flag, idRef, name, optionalIdRef, sortNo, text, unitField } from './schema-fields.ts';
import { DISPLAY_TYPES, FILTER_TYPES, STATICS_TYPES, parseRangeFilter, parseStandard } from './statistics.ts';

// ---- Device type -------------------------------------------------------------------------

export const deviceTypeDto = z.object({
  Id: z.number(),
  TypeName: z.string(),
  /** TypeName again, under the name the console shows it by. */
  DeviceTypeName: z.string(),
  ICON: z.string(),
  ParentId: z.number(),
  Description: z.string(),
  /** 1 in use, 0 disabled. */
  Status: z.number(),
});
export type DeviceTypeDto = z.infer<typeof deviceTypeDto>;

const status = z.coerce
  .number()
  .int()
  .pipe(z.union([z.literal(0), z.literal(1)], { message: messageRef('rule.status') }));
const deviceTypeFields = {
  TypeName: name(64),
  ICON: text(500),
  ParentId: z.preprocess((v) => (v === '' || v === null || v === undefined ? 0 : v), z.coerce.number().int().min(0)),
  Description: text(500),
  Status: status.default(1),
};
export const addDeviceTypeRequest = z.object(deviceTypeFields);
export const updateDeviceTypeRequest = z.object({ Id: idRef.optional(), ...deviceTypeFields });

/** Type/Copy and Type/copyfiles: copy a type into a new type (no TargetId) or over an existing one. */
export const copyTypeRequest = z.preprocess(
  (b) => {
    if (!b || typeof b !== 'object') return b;
    const v = b as Record<string, unknown>;
    return {
      SourceId: v.SourceId ?? v.sourceId ?? v.sourceid,
      TargetId: v.TargetId ?? v.targetId ?? v.targetid,
      TypeName: v.TypeName ?? v.typeName,
    };
  },
  z.object({ SourceId: idRef, TargetId: optionalIdRef, TypeName: optional(name(64)) }),
);
export type CopyTypeRequest = z.infer<typeof copyTypeRequest>;

// ---- Data points of a type ---------------------------------------------------------------

/** Panel view modes (§3 Enumerations): which view shows a data point. */
export const VIEW_MODES = { detection: 0, monitoring: 1, status: 2 } as const;

export const typeDataDefineDto = dataDefineDto.omit({ Id: true }).extend({
  Id: z.number(),
  TypeId: z.number(),
  DataDefineId: z.number(),
  AutoControl: z.boolean(),
  OutKey: z.string(),
  /** Panel view mode: 0 detection, 1 monitoring, 2 status. */
  ShowType: z.number(),
});
export type TypeDataDefineDto = z.infer<typeof typeDataDefineDto>;
const typeDataDefineFields = {
  DataDefineId: idRef,
  AutoControl: flag.default(false),
  OutKey: optional(dataKey),
  ShowType: z.coerce.number().int().min(0).max(2).default(0),
};
export const addTypeDataDefineRequest = z.object(typeDataDefineFields);
export const updateTypeDataDefineRequest = z.object({ Id: idRef, ...typeDataDefineFields });

// ---- Arguments, configs, display icons, overview, classes --------------------------------

export const typeArgumentDto = z.object({
  Id: z.number(),
  TypeId: z.number(),
  DefineId: z.number(),
  Name: z.string(),
  Category: z.string(),
});
const typeArgumentFields = { DefineId: idRef, Name: name(64), Category: text(64) };
export const addTypeArgumentRequest = z.object(typeArgumentFields);
export const updateTypeArgumentRequest = z.object({ Id: idRef, ...typeArgumentFields });

export const typeConfigDto = z.object({
  Id: z.number(),
  TypeId: z.number(),
  DataName: z.string(),
  DataType: z.enum(DATA_TYPES),
  DataValue: z.string(),
  Category: z.string(),
  Position: z.string(),
});
const typeConfigFields = {
  DataName: name(64),
  DataType: dataTypeField,
  DataValue: text(200),
  Category: text(64),
  Position: text(64),
};
/** A configured value must fit its data type (with the type's default format). */
const valueFitsType = <T extends { DataType: string; DataValue?: string | undefined }>(schema: z.ZodType<T>) =>
  schema.superRefine((v, ctx) => {
    const type = dataTypeField.safeParse(v.DataType);
    if (!type.success) return;
    const format = normalizeFormat(type.data, '');
    const problem = checkValue(type.data, 'format' in format ? format.format : '', v.DataValue ?? '');
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['DataValue'] });
  });
export const addTypeConfigRequest = valueFitsType(z.object(typeConfigFields));
export const updateTypeConfigRequest = valueFitsType(z.object({ Id: idRef, ...typeConfigFields }));

export const typeDisplayIconDto = z.object({
  Id: z.number(),
  TypeId: z.number(),
  Name: z.string(),
  Sn: z.number(),
  DataDefineId: z.number(),
  Icon: z.string(),
  /** The DataKey of DataDefineId, kept with the row. */
  DataDefineKey: z.string(),
});
const displayIconFields = { Name: name(64), Sn: sortNo.default(0), DataDefineId: idRef, Icon: text(500) };
export const addTypeDisplayIconRequest = z.object(displayIconFields);
export const updateTypeDisplayIconRequest = z.object({ Id: idRef, ...displayIconFields });

export const typeOverviewDto = z.object({
  Id: z.number(),
  TypeId: z.number(),
  TypeDataDefineId: z.number(),
  Name: z.string(),
  Sn: z.number(),
});
const overviewFields = { TypeDataDefineId: idRef, Name: name(64), Sn: sortNo.default(0) };
export const addTypeOverviewRequest = z.object(overviewFields);
export const updateTypeOverviewRequest = z.object({ Id: idRef, ...overviewFields });

export const typeClassDto = z.object({ Id: z.number(), TypeId: z.number(), Name: z.string(), Rank: z.number() });
const classFields = { Name: name(64), Rank: sortNo.default(0) };
export const addTypeClassRequest = z.object(classFields);
export const updateTypeClassRequest = z.object({ Id: idRef, ...classFields });

// ---- Hardware configuration (Modbus) -----------------------------------------------------

export const hardwareConfigDto = z.object({
  Id: z.number(),
  TypeId: z.number(),
  DataDefineId: z.number(),
  No: z.string(),
  Sn: z.number(),
  ShowKey: z.string(),
  KeyType: z.string(),
  Max: z.number().nullable(),
  Min: z.number().nullable(),
  Comm: z.string(),
  Port: z.string(),
  ModbusSlave: z.number(),
  PLCType: z.string(),
  RegAd: z.number(),
  CMD: z.number(),
  Address: z.string(),
  BitOffSet: z.number(),
  Lens: z.number(),
  /** The RTU read request for this row with its CRC ('01 03 00 00 00 01 84 0A'); null for write codes. */
  ReadFrame: z.string().nullable(),
  Crc: z.string().nullable(),
});
export type HardwareConfigDto = z.infer<typeof hardwareConfigDto>;

const int = (min: number, max: number, key: string) =>
  z.coerce
    .number()
    .int({ message: messageRef(key, { min, max }) })
    .min(min, { message: messageRef(key, { min, max }) })
    .max(max, { message: messageRef(key, { min, max }) });
const optionalNumber = z.preprocess((v) => (v === '' || v === undefined ? null : v), z.coerce.number().nullable());

const hardwareFields = {
  DataDefineId: idRef,
  No: text(32),
  Sn: sortNo.default(0),
  ShowKey: text(64),
  KeyType: z
    .enum(REGISTER_TYPES, { message: messageRef('rule.keyType', { types: REGISTER_TYPES.join(', ') }) })
    .default('uint16'),
  Max: optionalNumber.optional(),
  Min: optionalNumber.optional(),
  Comm: text(32),
  Port: text(32),
  ModbusSlave: int(MODBUS_SLAVE_MIN, MODBUS_SLAVE_MAX, 'rule.modbusSlave').default(1),
  PLCType: text(32),
  RegAd: int(0, REGISTER_MAX, 'rule.register'),
  CMD: z.coerce
    .number()
    .int()
    .refine((v) => FUNCTION_CODES.includes(v), { message: messageRef('rule.functionCode', { codes: FUNCTION_CODES.join(', ') }) })
    .default(3),
  Address: text(32),
  BitOffSet: int(0, BIT_OFFSET_MAX, 'rule.bitOffset').default(0),
  Lens: int(1, 2000, 'rule.quantity').default(1),
};

/** Min ≤ Max; the read stays inside the register space and within what one request may read. */
const modbusRules = <
  T extends { Min?: number | null | undefined; Max?: number | null | undefined; RegAd: number; Lens: number; CMD: number },
>(
  schema: z.ZodType<T>,
) =>
  schema.superRefine((v, ctx) => {
    if (v.Min !== undefined && v.Min !== null && v.Max !== undefined && v.Max !== null && v.Min > v.Max) {
      ctx.addIssue({ code: 'custom', message: messageRef('rule.minMax'), path: ['Min'] });
    }
    const limit = (READ_FUNCTIONS[v.CMD] ?? WRITE_FUNCTIONS[v.CMD])?.maxQuantity ?? 125;
    if (v.Lens > limit)
      ctx.addIssue({ code: 'custom', message: messageRef('rule.quantity', { min: 1, max: limit }), path: ['Lens'] });
    // The last register read must exist: said on the register address, which the message names.
    if (v.RegAd + v.Lens - 1 > REGISTER_MAX) {
      ctx.addIssue({ code: 'custom', message: messageRef('rule.register', { min: 0, max: REGISTER_MAX }), path: ['RegAd'] });
    }
  });
/** A device's own hardware row ({kind}/{id}/DeviceHardware): a type's row's fields, under the device. */
export const deviceHardwareDto = hardwareConfigDto.omit({ TypeId: true }).extend({ DeviceSn: z.string() });
export type DeviceHardwareDto = z.infer<typeof deviceHardwareDto>;

export const addHardwareConfigRequest = modbusRules(z.object(hardwareFields));
export const updateHardwareConfigRequest = modbusRules(z.object({ Id: idRef, ...hardwareFields }));

// ---- Modules, controls, arguments and feedback ---------------------------------------------

export const typeModuleDto = z.object({
  Id: z.number(),
  TypeId: z.number(),
  ModuleName: z.string(),
  ModuleType: z.string(),
  Sn: z.number(),
});
const moduleFields = { ModuleName: name(64), ModuleType: text(32), Sn: sortNo.default(0) };
export const addTypeModuleRequest = z.object(moduleFields);
export const updateTypeModuleRequest = z.object({ Id: idRef, ...moduleFields });

export const moduleControlDto = z.object({
  Id: z.number(),
  TypeId: z.number(),
  ModuleId: z.number(),
  /** The data key the control writes (the DataKey of DataDefineId unless set). */
  Key: z.string(),
  ControlName: z.string(),
  DataDefineId: z.number(),
  ShowType: z.string(),
  Format: z.string(),
  Unit: z.string(),
  AutoControl: z.boolean(),
  Formula: z.string(),
  DataValue: z.string(),
  Sn: z.number(),
  ClassId: z.number().nullable(),
});
export type ModuleControlDto = z.infer<typeof moduleControlDto>;
const controlFields = {
  ModuleId: idRef,
  Key: optional(dataKey),
  ControlName: name(64),
  DataDefineId: idRef,
  ShowType: text(32),
  Format: text(2000),
  Unit: unitField,
  AutoControl: flag.default(false),
  Formula: optional(z.string().max(500).refine(isValidFormula, { message: 'rule.formula' })),
  DataValue: text(200),
  Sn: sortNo.default(0),
  ClassId: z.preprocess((v) => (v === '' || v === 0 || v === '0' ? null : v), idRef.nullable().optional()),
};
export const addModuleControlRequest = z.object(controlFields);
export const updateModuleControlRequest = z.object({ Id: idRef, ...controlFields });

export const moduleArgumentDto = z.object({
  Id: z.number(),
  TypeId: z.number(),
  ModuleId: z.number(),
  DataDefineId: z.number(),
  Name: z.string(),
  Category: z.string(),
});
const moduleArgumentFields = { DataDefineId: idRef, Name: name(64), Category: text(64) };
export const addModuleArgumentRequest = z.object(moduleArgumentFields);
export const updateModuleArgumentRequest = z.object({ Id: idRef, ...moduleArgumentFields });

export const moduleFeedbackDto = z.object({
  Id: z.number(),
  TypeId: z.number(),
  ModuleControlId: z.number(),
  DataDefineId: z.number(),
  Sn: z.number(),
});
const feedbackFields = { ModuleControlId: idRef, DataDefineId: idRef, Sn: sortNo.default(0) };
export const addModuleFeedbackRequest = z.object(feedbackFields);
export const updateModuleFeedbackRequest = z.object({ Id: idRef, ...feedbackFields });

// ---- Schema tree ---------------------------------------------------------------------------

export const typeSchemaDto = z.object({
  Id: z.number(),
  TypeId: z.number(),
  DataDefineId: z.number().nullable(),
  Name: z.string(),
  Value: z.string(),
  SchemaType: z.string(),
  ParentId: z.number(),
});
export type TypeSchemaDto = z.infer<typeof typeSchemaDto>;
export type TypeSchemaNode = TypeSchemaDto & { Children: TypeSchemaNode[] };
export const typeSchemaNode: z.ZodType<TypeSchemaNode> = typeSchemaDto.extend({
  Children: z.lazy(() => z.array(typeSchemaNode)),
});
const schemaFields = {
  DataDefineId: z.preprocess((v) => (v === '' || v === 0 || v === '0' ? null : v), idRef.nullable().optional()),
  Name: name(64),
  Value: text(500),
  SchemaType: text(32),
  ParentId: z.preprocess((v) => (v === '' || v === null || v === undefined ? 0 : v), z.coerce.number().int().min(0)),
};
export const addTypeSchemaRequest = z.object(schemaFields);
export const updateTypeSchemaRequest = z.object({ Id: idRef, ...schemaFields });

// ---- Statistics ----------------------------------------------------------------------------

export const typeStatisticDto = z.object({
  Id: z.number(),
  TypeId: z.number(),
  /** The DataKey of DataDefineId. */
  Key: z.string(),
  DataDefineId: z.number(),
  StaticsType: z.enum(STATICS_TYPES),
  DisplayType: z.enum(DISPLAY_TYPES),
  Standard: z.string(),
  Filter: z.string(),
  FilterType: z.enum(FILTER_TYPES),
  ShowState: z.boolean(),
  SUnit: z.string(),
  Name: z.string(),
});
export type TypeStatisticDto = z.infer<typeof typeStatisticDto>;
const statisticFields = {
  DataDefineId: idRef,
  StaticsType: z.enum(STATICS_TYPES, { message: messageRef('rule.staticsType', { types: STATICS_TYPES.join(', ') }) }),
  DisplayType: z.enum(DISPLAY_TYPES).default('chart'),
  Standard: optional(
    z
      .string()
      .trim()
      .max(32)
      .refine((v) => parseStandard(v) !== undefined, { message: 'rule.standard' }),
  ),
  Filter: text(64),
  FilterType: z.enum(FILTER_TYPES).default('none'),
  ShowState: flag.default(true),
  SUnit: unitField,
  Name: name(64),
};
const rangeFilterRule = <T extends { FilterType: string; Filter?: string | undefined }>(schema: z.ZodType<T>) =>
  schema.superRefine((v, ctx) => {
    if (v.FilterType === 'range' && parseRangeFilter(v.Filter ?? '') === undefined) {
      ctx.addIssue({ code: 'custom', message: messageRef('rule.rangeFilter'), path: ['Filter'] });
    }
  });
export const addTypeStatisticRequest = rangeFilterRule(z.object(statisticFields));
export const updateTypeStatisticRequest = rangeFilterRule(z.object({ Id: idRef, ...statisticFields }));

// ---- Service intervals by run hours (maintenance) ---------------------------------------------

/** Hours a pump or blower may run between services; its run switch (a boolean data point) counts the time. */
export const typeMaintenanceDto = z.object({
  Id: z.number(),
  TypeId: z.number(),
  /** The DataKey of DataDefineId. */
  Key: z.string(),
  DataDefineId: z.number(),
  Name: z.string(),
  IntervalHours: z.number(),
});
export type TypeMaintenanceDto = z.infer<typeof typeMaintenanceDto>;
const maintenanceFields = {
  DataDefineId: idRef,
  Name: name(64),
  IntervalHours: z.coerce
    .number({ message: messageRef('rule.number') })
    .min(1, { message: messageRef('rule.valueMin', { min: 1 }) })
    .max(100000, { message: messageRef('rule.valueMax', { max: 100000 }) }),
};
export const addTypeMaintenanceRequest = z.object(maintenanceFields);
export const updateTypeMaintenanceRequest = z.object({ Id: idRef, ...maintenanceFields });

// ---- Images and upgrade files ----------------------------------------------------------------

export const TYPE_IMAGE_LIMIT = 200 * 1024 * 1024;
export const TYPE_IMAGE_KINDS = ['png', 'jpeg', 'bmp', 'gif', 'mp4'] as const;

export const typeImageDto = z.object({
  Id: z.number(),
  TypeId: z.number(),
  ImageName: z.string(),
  Sn: z.number(),
  url: z.string(),
  Kind: z.string(),
});
export type TypeImageDto = z.infer<typeof typeImageDto>;
/** The image dialog's fields: a name is required there (sorting saves rows without one). */
export const typeImageFields = z.object({ ImageName: name(128), Sn: sortNo });
export const typeImageSaveRequest = z.object({
  TypeId: idRef,
  Images: z
    .array(z.object({ Id: idRef, Sn: sortNo, ImageName: optional(name(128)) }))
    .min(1)
    .max(500),
});

export const FIRMWARE_LIMIT = 3 * 1024 * 1024;
/** Firmware roles: main system, subsystem, bootloader. */
export const FIRMWARE_ROLES = ['main', 'subsystem', 'bootloader'] as const;

export const typeUpdateFileDto = z.object({
  Id: z.number(),
  TypeId: z.number(),
  FileName: z.string(),
  Version: z.string(),
  Role: z.enum(FIRMWARE_ROLES),
  Description: z.string(),
  Size: z.number(),
  Sha256: z.string(),
  url: z.string(),
  CreatedAt: z.number(),
});
export type TypeUpdateFileDto = z.infer<typeof typeUpdateFileDto>;
/** The fields sent with a firmware upload (multipart fields before the file, or the query). */
export const typeUpdateFileFields = z.object({
  TypeId: idRef,
  Version: fileVersion,
  Role: z
    .enum(FIRMWARE_ROLES, { message: messageRef('rule.firmwareRole', { roles: FIRMWARE_ROLES.join(', ') }) })
    .default('main'),
  Description: text(500),
});
export const updateTypeUpdateFileRequest = z.object({
  Id: idRef,
  Version: fileVersion,
  Role: z.enum(FIRMWARE_ROLES, { message: messageRef('rule.firmwareRole', { roles: FIRMWARE_ROLES.join(', ') }) }),
  Description: text(500),
});
