/**
 * The data definition library, its categories and linked warn codes (spec §3
 * DataDefineLibrary, Category, DataDefineWarnCode; §7 Data definitions and categories).
 */
import { z } from 'zod';
import { DATA_TYPES, checkDataDefinition } from './data-types.ts';
import { anyText, messageRef } from './rules.ts';
import { dataKey, idRef, name, nameList, text, unitField } from './schema-fields.ts';

export const dataDefineDto = z.object({
  Id: z.number(),
  DataKey: z.string(),
  DataName: z.string(),
  Unit: z.string(),
  DataType: z.enum(DATA_TYPES),
  DefaultValue: z.string(),
  Format: z.string(),
  Model: z.string(),
  /** Category names joined by commas. */
  Category: z.string(),
});
export type DataDefineDto = z.infer<typeof dataDefineDto>;

export const dataTypeField = z.enum(DATA_TYPES, { message: messageRef('rule.dataType', { types: DATA_TYPES.join(', ') }) });

export const dataDefineFields = {
  DataKey: dataKey,
  DataName: name(64),
  Unit: unitField,
  DataType: dataTypeField,
  DefaultValue: text(200),
  Format: text(2000),
  Model: text(64),
  Category: nameList,
};

/**
 * Checks DefaultValue and Format against the data type (each issue on its own field) and
 * stores the format in its canonical form, defaults applied.
 */
export function withDataRules<T extends { DataType: string; DefaultValue?: string | undefined; Format?: string | undefined }>(
  schema: z.ZodType<T>,
) {
  return schema
    .superRefine((value, ctx) => {
      for (const issue of checkDataDefinition(value).issues) {
        ctx.addIssue({ code: 'custom', message: issue.message, path: [issue.field] });
      }
    })
    .transform((value) => ({ ...value, Format: checkDataDefinition(value).format }));
}

export const addDataDefineRequest = withDataRules(z.object(dataDefineFields));
export const updateDataDefineRequest = withDataRules(z.object({ Id: idRef, ...dataDefineFields }));
export type AddDataDefineRequest = z.input<typeof addDataDefineRequest>;

/** One rejected row of a library import: its line in the file, its key and what is wrong. */
export const importRejectionDto = z.object({
  Row: z.number(),
  DataKey: z.string(),
  Errors: z.array(z.object({ field: z.string(), message: z.string() })),
});
export const importReportDto = z.object({
  Added: z.number(),
  Updated: z.number(),
  Unchanged: z.number(),
  Rejected: z.array(importRejectionDto),
});
export type ImportReportDto = z.infer<typeof importReportDto>;

/** The columns of the library's CSV file, in order. */
export const LIBRARY_COLUMNS = [
  'DataKey',
  'DataName',
  'Unit',
  'DataType',
  'DefaultValue',
  'Format',
  'Model',
  'Category',
] as const;

export const categoryDto = z.object({ Id: z.number(), Name: z.string() });
export type CategoryDto = z.infer<typeof categoryDto>;
const categoryName = anyText(1, 32).refine((v) => !/[,，]/.test(v), { message: 'rule.noComma' });
export const addCategoryRequest = z.object({ Name: categoryName });
export const updateCategoryRequest = z.object({ Id: idRef, Name: categoryName });

export const warnCodeValue = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_.-]{1,32}$/, { message: 'rule.warnCode' });

export const dataDefineWarnCodeDto = z.object({ Id: z.number(), DataKey: z.string(), Code: z.string() });
export type DataDefineWarnCodeDto = z.infer<typeof dataDefineWarnCodeDto>;
export const addDataDefineWarnCodeRequest = z.object({ DataKey: dataKey, Code: warnCodeValue });
export const updateDataDefineWarnCodeRequest = z.object({ Id: idRef, DataKey: dataKey, Code: warnCodeValue });
