/**
 * A device's own data points and panels (spec §3 DeviceDataDefine, DevicePanel; §7 Devices),
 * copied from its type's standard template when the device is created, then edited per device.
 */
import { z } from 'zod';
import { DATA_TYPES } from './data-types.ts';
import { dataTypeField, withDataRules } from './data-define.schema.ts';
import { optional } from './rules.ts';
import { dataKey, flag, idRef, name, sortNo, text, unitField } from './schema-fields.ts';

/** Panel types of the device page (§2 Home panels) with their ids. */
export const PANEL_TYPES = [
  { Id: 1, Code: 'deviceMap', Name: { 'en-US': 'Map', 'zh-CN': '地图' } },
  { Id: 2, Code: 'deviceDataDefine', Name: { 'en-US': 'Data points', 'zh-CN': '数据点' } },
  { Id: 3, Code: 'deviceBaseInfo', Name: { 'en-US': 'Basic information', 'zh-CN': '基本信息' } },
  { Id: 4, Code: 'deviceBaseData', Name: { 'en-US': 'Basic data', 'zh-CN': '基础数据' } },
  { Id: 5, Code: 'image', Name: { 'en-US': 'Images', 'zh-CN': '图片' } },
  { Id: 6, Code: 'video', Name: { 'en-US': 'Camera video', 'zh-CN': '视频监控' } },
  { Id: 7, Code: 'deviceControlData', Name: { 'en-US': 'Control', 'zh-CN': '控制' } },
  { Id: 8, Code: 'deviceError', Name: { 'en-US': 'Faults', 'zh-CN': '故障' } },
  { Id: 9, Code: 'deviceConfig', Name: { 'en-US': 'Configuration', 'zh-CN': '配置' } },
] as const;
export const PANEL_TYPE_IDS: number[] = PANEL_TYPES.map((p) => p.Id);

export const panelTypeDto = z.object({ Id: z.number(), Code: z.string(), Name: z.string() });

/** The device's serial number, in whichever casing the caller used. */
const deviceSnOf = (v: Record<string, unknown>) => v.DeviceSn ?? v.deviceSn ?? v.devicesn;
const withDeviceSn = <T extends z.ZodType>(schema: T) =>
  z.preprocess((b) => (b && typeof b === 'object' ? { ...b, DeviceSn: deviceSnOf(b as Record<string, unknown>) } : b), schema);
export const deviceSnField = z.string().trim().min(1).max(64);

export const deviceDataDefineDto = z.object({
  Id: z.number(),
  DeviceSn: z.string(),
  PanelId: z.number().nullable(),
  DataKey: z.string(),
  DisplayKey: z.string(),
  DataName: z.string(),
  Unit: z.string(),
  DataType: z.enum(DATA_TYPES),
  DefaultValue: z.string(),
  Format: z.string(),
  AutoControl: z.boolean(),
});
export type DeviceDataDefineDto = z.infer<typeof deviceDataDefineDto>;
const deviceDataDefineFields = {
  PanelId: z.preprocess((v) => (v === '' || v === 0 || v === '0' ? null : v), idRef.nullable().optional()),
  DataKey: dataKey,
  DisplayKey: optional(dataKey),
  DataName: name(64),
  Unit: unitField,
  DataType: dataTypeField,
  DefaultValue: text(200),
  Format: text(2000),
  AutoControl: flag.default(false),
};
export const addDeviceDataDefineRequest = withDeviceSn(
  withDataRules(z.object({ DeviceSn: deviceSnField, ...deviceDataDefineFields })),
);
export const updateDeviceDataDefineRequest = withDataRules(z.object({ Id: idRef, ...deviceDataDefineFields }));

/**
 * The legacy DeviceBaseData and DeviceControlData calls (spec §7 Devices, legacy): a device's data
 * points on its basic-data panel (type 4) or its control panel (type 7), by the panel's kind
 * rather than its id.
 */
export const PANEL_POINT_KINDS = { DeviceBaseData: 4, DeviceControlData: 7 } as const;
export type PanelPointKind = keyof typeof PANEL_POINT_KINDS;
const panelPointFields = z.object(deviceDataDefineFields).omit({ PanelId: true }).shape;
export const addPanelPointRequest = withDeviceSn(withDataRules(z.object({ DeviceSn: deviceSnField, ...panelPointFields })));
export type AddPanelPointRequest = z.infer<typeof addPanelPointRequest>;
export const updatePanelPointRequest = withDataRules(z.object({ Id: idRef, ...panelPointFields }));
export type UpdatePanelPointRequest = z.infer<typeof updatePanelPointRequest>;
export const panelPointIdRequest = z.preprocess(
  (b) => (b && typeof b === 'object' ? { ...b, Id: (b as Record<string, unknown>).Id ?? (b as Record<string, unknown>).id } : b),
  z.object({ Id: idRef }),
);
export const panelPointListQuery = withDeviceSn(z.object({ DeviceSn: deviceSnField }));

/** DevicePanel, with the spec's own casing (typeId is the panel type, deviceSn the device). */
export const devicePanelDto = z.object({
  Id: z.number(),
  PanelName: z.string(),
  typeId: z.number(),
  deviceSn: z.string(),
  Sn: z.number(),
});
export type DevicePanelDto = z.infer<typeof devicePanelDto>;
const panelTypeId = z.coerce
  .number()
  .int()
  .refine((v) => PANEL_TYPE_IDS.includes(v), { message: 'rule.panelType' });
const lowerPanel = (b: unknown) => {
  if (!b || typeof b !== 'object') return b;
  const v = b as Record<string, unknown>;
  return { ...v, typeId: v.typeId ?? v.TypeId ?? v.PanelTypeId, deviceSn: deviceSnOf(v) };
};
export const addDevicePanelRequest = z.preprocess(
  lowerPanel,
  z.object({ deviceSn: deviceSnField, PanelName: name(64), typeId: panelTypeId, Sn: sortNo.default(0) }),
);
export const updateDevicePanelRequest = z.preprocess(
  lowerPanel,
  z.object({ Id: idRef, PanelName: name(64), typeId: panelTypeId, Sn: sortNo.optional() }),
);

/** A device's configuration value (spec §3 Device config). */
export const deviceConfigDto = z.object({
  Id: z.number(),
  DeviceSn: z.string(),
  DataName: z.string(),
  DataType: z.enum(DATA_TYPES),
  DataValue: z.string(),
});
export type DeviceConfigDto = z.infer<typeof deviceConfigDto>;
