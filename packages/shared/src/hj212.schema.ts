/**
 * HJ 212 data loggers and pollutant codes (issue 21): a logger is a device whose MN and
 * password are its credentials; a group's code table maps the standard's pollutant codes to
 * DataKeys, with a scale from the standard's unit to the data point's.
 */
import { z } from 'zod';
import { anyText, optional } from './rules.ts';
import { dataKey, idRef } from './schema-fields.ts';

/** MN: the logger's unique code, up to 24 letters and digits (HJ 212-2017 6.3.2). */
export const HJ212_MN_PATTERN = /^[0-9A-Za-z]{1,24}$/;
/** PW: the access password, printable characters without the packet's separators. */
export const HJ212_PW_PATTERN = /^[0-9A-Za-z!$%()*+./:<>?@^_{|}~-]{1,32}$/;
/** A pollutant code of the 2017 standard (w01018) or of the 2005 one (011). */
export const HJ212_CODE_PATTERN = /^[A-Za-z0-9]{2,12}$/;

export const hj212Mn = z.string().trim().regex(HJ212_MN_PATTERN, { message: 'hj212.rule.mn' });
export const hj212Password = z.string().regex(HJ212_PW_PATTERN, { message: 'hj212.rule.password' });
export const hj212Code = z.string().trim().regex(HJ212_CODE_PATTERN, { message: 'hj212.rule.code' });

/** The codes every group starts with: the effluent analysers of a station and its flow (L/s → m³/h). */
export const HJ212_DEFAULT_CODES = [
  { Code: 'w01018', DataKey: 'COD_Out', Name: 'COD', Scale: 1 },
  { Code: 'w21003', DataKey: 'NH3_N_Out', Name: 'NH3-N', Scale: 1 },
  { Code: 'w21011', DataKey: 'TP_Out', Name: 'TP', Scale: 1 },
  { Code: 'w21001', DataKey: 'TN_Out', Name: 'TN', Scale: 1 },
  { Code: 'w01001', DataKey: 'PH_Out', Name: 'pH', Scale: 1 },
  { Code: 'w00000', DataKey: 'Inflow', Name: 'Flow', Scale: 3.6 },
] as const;

export const hj212CodeDto = z.object({
  Id: z.number(),
  Code: z.string(),
  DataKey: z.string(),
  Name: z.string(),
  Scale: z.number(),
});
export type Hj212CodeDto = z.infer<typeof hj212CodeDto>;

const scale = z.coerce
  .number({ message: 'rule.number' })
  .refine((v) => Number.isFinite(v) && v !== 0 && Math.abs(v) <= 1e6, { message: 'hj212.rule.scale' });

const codeFields = { Code: hj212Code, DataKey: dataKey, Name: optional(anyText(0, 64)), Scale: scale.optional() };
export const addHj212CodeRequest = z.object(codeFields);
export const updateHj212CodeRequest = z.object({ Id: idRef, ...codeFields });

/** A device's logger settings, as the device page shows them (never the password). */
export const hj212LoggerDto = z.object({
  DeviceSn: z.string(),
  /** Empty when the device is not an HJ 212 logger. */
  Mn: z.string(),
  Connected: z.boolean(),
  /** Epoch ms of the last packet, or null. */
  LastPacket: z.number().nullable(),
  Received: z.number(),
  Stored: z.number(),
  /** Packets refused since the server started, by reason (header, length, crc, format, field, password, data). */
  Refused: z.record(z.string(), z.number()),
  LastRefusal: z.string(),
});
export type Hj212LoggerDto = z.infer<typeof hj212LoggerDto>;

export const setHj212LoggerRequest = z.object({ Mn: hj212Mn, Password: hj212Password });
