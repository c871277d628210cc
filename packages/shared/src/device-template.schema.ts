/**
 * Device type templates and their parts (spec §3 Template, Template profile, panel, args,
 * accessory, control data, config; §7 Templates). A type's standard template (IsStandard) is
 * what a new device of the type starts from.
 */
import { z } from 'zod';
import { DATA_TYPES } from './data-types.ts';
import { dataTypeField, withDataRules } from './data-define.schema.ts';
import { optional } from './rules.ts';
import { dataKey, flag, idRef, name, sortNo, text, unitField } from './schema-fields.ts';
import { PANEL_TYPE_IDS } from './device-data.schema.ts';

export const templateDto = z.object({
  Id: z.number(),
  TypeId: z.number(),
  TempName: z.string(),
  IsStandard: z.boolean(),
  /** The device the template was taken from, if any. */
  DeviceSn: z.string(),
});
export type TemplateDto = z.infer<typeof templateDto>;
const templateFields = { TypeId: idRef, TempName: name(64), IsStandard: flag.default(false), DeviceSn: text(64) };
export const addTemplateRequest = z.object(templateFields);
export const updateTemplateRequest = z.object({ Id: idRef, ...templateFields });

export const templateProfileDto = z.object({
  Id: z.number(),
  TempId: z.number(),
  /** The template panel the data point shows on, if any. */
  PanelId: z.number().nullable(),
  DataType: z.enum(DATA_TYPES),
  DataKey: z.string(),
  DisplayKey: z.string(),
  DataName: z.string(),
  Unit: z.string(),
  DefaultValue: z.string(),
  Format: z.string(),
  AutoControl: z.boolean(),
});
export type TemplateProfileDto = z.infer<typeof templateProfileDto>;
const profileFields = {
  TempId: idRef,
  PanelId: z.preprocess((v) => (v === '' || v === 0 || v === '0' ? null : v), idRef.nullable().optional()),
  DataType: dataTypeField,
  DataKey: dataKey,
  DisplayKey: optional(dataKey),
  DataName: name(64),
  Unit: unitField,
  DefaultValue: text(200),
  Format: text(2000),
  AutoControl: flag.default(false),
};
export const addTemplateProfileRequest = withDataRules(z.object(profileFields));
export const updateTemplateProfileRequest = withDataRules(z.object({ Id: idRef, ...profileFields }));

export const templatePanelDto = z.object({
  Id: z.number(),
  TempId: z.number(),
  PanelTypeId: z.number(),
  PanelName: z.string(),
  Sn: z.number(),
});
const panelType = z.coerce
  .number()
  .int()
  .refine((v) => PANEL_TYPE_IDS.includes(v), { message: 'rule.panelType' });
const panelFields = { TempId: idRef, PanelTypeId: panelType, PanelName: name(64), Sn: sortNo.default(0) };
export const addTemplatePanelRequest = z.object(panelFields);
export const updateTemplatePanelRequest = z.object({ Id: idRef, ...panelFields });

export const templateArgDto = z.object({
  Id: z.number(),
  TempId: z.number(),
  DataName: z.string(),
  DataType: z.enum(DATA_TYPES),
  DataValue: z.string(),
});
const argFields = { TempId: idRef, DataName: name(64), DataType: dataTypeField, DataValue: text(200) };
export const addTemplateArgRequest = z.object(argFields);
export const updateTemplateArgRequest = z.object({ Id: idRef, ...argFields });

export const templateAccessoryDto = z.object({ Id: z.number(), TempId: z.number(), Name: z.string(), ICON: z.string() });
const accessoryFields = { TempId: idRef, Name: name(64), ICON: text(500) };
export const addTemplateAccessoryRequest = z.object(accessoryFields);
export const updateTemplateAccessoryRequest = z.object({ Id: idRef, ...accessoryFields });

export const templateControlDataDto = z.object({
  Id: z.number(),
  TempId: z.number(),
  ControlName: z.string(),
  DataValue: z.string(),
  DataDefineKey: z.string(),
  AssociateKey: z.string(),
  SequenceIn: z.number(),
  SequenceOut: z.number(),
  IState: z.number(),
  AccessoryId: z.number().nullable(),
});
const controlDataFields = {
  TempId: idRef,
  ControlName: name(64),
  DataValue: text(200),
  DataDefineKey: optional(dataKey),
  AssociateKey: optional(dataKey),
  SequenceIn: sortNo.default(0),
  SequenceOut: sortNo.default(0),
  IState: z.coerce.number().int().min(0).max(9).default(0),
  AccessoryId: z.preprocess((v) => (v === '' || v === 0 || v === '0' ? null : v), idRef.nullable().optional()),
};
export const addTemplateControlDataRequest = z.object(controlDataFields);
export const updateTemplateControlDataRequest = z.object({ Id: idRef, ...controlDataFields });

export const templateConfigDto = z.object({
  Id: z.number(),
  TempId: z.number(),
  Category: z.string(),
  DefineKey: z.string(),
  Name: z.string(),
});
const configFields = { TempId: idRef, Category: text(64), DefineKey: dataKey, Name: name(64) };
export const addTemplateConfigRequest = z.object(configFields);
export const updateTemplateConfigRequest = z.object({ Id: idRef, ...configFields });

/** GetDeviceTypeTemplate: a template with all of its parts. */
export const fullTemplateDto = templateDto.extend({
  Profiles: z.array(templateProfileDto),
  Panels: z.array(templatePanelDto),
  Args: z.array(templateArgDto),
  Accessories: z.array(templateAccessoryDto),
  ControlData: z.array(templateControlDataDto),
  Configs: z.array(templateConfigDto),
});
export type FullTemplateDto = z.infer<typeof fullTemplateDto>;

export const templateIdQuery = z.preprocess(
  (q) => {
    if (!q || typeof q !== 'object') return q;
    const v = q as Record<string, unknown>;
    return { Id: v.Id ?? v.id ?? v.TempId ?? v.tempId };
  },
  z.object({ Id: idRef }),
);
