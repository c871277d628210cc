/** Alarm (warn) types and codes (spec §3 WarnType, WarnCode; §7 Alarms, logs, records). */
import { z } from 'zod';
import { warnCodeValue } from './data-define.schema.ts';
import { anyText, optional } from './rules.ts';
import { idRef, name, text } from './schema-fields.ts';

export const COLOR_PATTERN = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

export const warnTypeDto = z.object({ Id: z.number(), TypeName: z.string(), Color: z.string(), Icon: z.string() });
export type WarnTypeDto = z.infer<typeof warnTypeDto>;
const warnTypeFields = {
  TypeName: name(32),
  Color: optional(z.string().trim().regex(COLOR_PATTERN, { message: 'rule.color' })),
  Icon: text(500),
};
export const addWarnTypeRequest = z.object(warnTypeFields);
export const updateWarnTypeRequest = z.object({ Id: idRef, ...warnTypeFields });

export const warnCodeDto = z.object({
  Id: z.number(),
  Code: z.string(),
  Description: z.string(),
  WarnTypeId: z.number(),
  /** The warn type's name. */
  TypeName: z.string(),
  Color: z.string(),
});
export type WarnCodeDto = z.infer<typeof warnCodeDto>;
/** POST {typeId}/warncode. */
export const addWarnCodeRequest = z.object({ Code: warnCodeValue, Description: anyText(1, 200) });
/** PUT {typeId}/warncode/{code}: the description, and optionally a move to another warn type. */
export const updateWarnCodeRequest = z.object({ Description: anyText(1, 200), WarnTypeId: idRef.optional() });
