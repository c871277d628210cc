/**
 * HJ 212 data loggers and pollutant codes (issue 21): a logger is a device whose MN and
 * password are its credentials; a group's code table maps the standard's pollutant codes to
 * DataKeys, with a scale from the standard's unit to the data point's.
 */
import { z } from 'zod';
import { anyText, optional } from './rules.ts';
import { dataKey, idRef } from './schema-fields.ts';
import { secretFields } from './secret-fields.ts';

/** MN: the logger's unique code, up to 24 letters and digits (HJ 212-2017 6.3.2). */
export const HJ212_MN_PATTERN = /^[0-9A-Za-z]{1,24}$/;
/** PW: the access password, printable characters without the packet's separators. */
export const HJ212_PW_PATTERN = /^[0-9A-Za-z!$%()*+./:<>?@^_{|}~-]{1,32}$/;
/** A pollutant code of the 2017 standard (w01018) or of the 2005 one (011). */
export const HJ212_CODE_PATTERN = /^[A-Za-z0-9]{2,12}$/;

export const hj212Mn = z.string().trim().regex(HJ212_MN_PATTERN, { message: 'hj212.rule.mn' });
export const hj212Password = z.string().regex(HJ212_PW_PATTERN, { message: 'hj212.rule.password' });
export const hj212Code = z.string().trim().regex(HJ212_CODE_PATTERN, { message: 'hj212.rule.code' });

/**
 * What a code's period total (-Cou) is when forwarded: a flow's volume (m³, from its rate in
 * L/s), a pollutant's load (kg, its concentration in mg/L × the flow's volume), or none ('').
 */
export const HJ212_TOTALS = ['', 'volume', 'load'] as const;
export type Hj212Total = (typeof HJ212_TOTALS)[number];

/** The codes every group starts with: the effluent analysers of a station and its flow (L/s → m³/h). */
export const HJ212_DEFAULT_CODES = [
  { Code: 'w01018', DataKey: 'COD_Out', Name: 'COD', Scale: 1, Total: 'load' },
  { Code: 'w21003', DataKey: 'NH3_N_Out', Name: 'NH3-N', Scale: 1, Total: 'load' },
  { Code: 'w21011', DataKey: 'TP_Out', Name: 'TP', Scale: 1, Total: 'load' },
  { Code: 'w21001', DataKey: 'TN_Out', Name: 'TN', Scale: 1, Total: 'load' },
  { Code: 'w01001', DataKey: 'PH_Out', Name: 'pH', Scale: 1, Total: '' },
  { Code: 'w00000', DataKey: 'Inflow', Name: 'Flow', Scale: 3.6, Total: 'volume' },
] as const;

export const hj212CodeDto = z.object({
  Id: z.number(),
  Code: z.string(),
  DataKey: z.string(),
  Name: z.string(),
  Scale: z.number(),
  Total: z.string(),
});
export type Hj212CodeDto = z.infer<typeof hj212CodeDto>;

const scale = z.coerce
  .number({ message: 'rule.number' })
  .refine((v) => Number.isFinite(v) && v !== 0 && Math.abs(v) <= 1e6, { message: 'hj212.rule.scale' });

const total = z.enum(HJ212_TOTALS, { message: 'hj212.rule.total' });
const codeFields = {
  Code: hj212Code,
  DataKey: dataKey,
  Name: optional(anyText(0, 64)),
  Scale: scale.optional(),
  Total: total.optional(),
};
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
  /** Packets refused (on every server instance), by reason (header, length, crc, format, field, password, data). */
  Refused: z.record(z.string(), z.number()),
  LastRefusal: z.string(),
  /** The TCP port loggers connect to on this server, or null while the listener is off (HJ212_PORT unset). */
  ListenerPort: z.number().nullable(),
});
export type Hj212LoggerDto = z.infer<typeof hj212LoggerDto>;

export const setHj212LoggerRequest = z.object({ Mn: hj212Mn, ...secretFields({ Password: hj212Password }) });

/** Data kinds a forwarding link may send: minute (2051), hourly (2061) and daily (2031) data. */
export const HJ212_FORWARD_KINDS = ['minute', 'hourly', 'daily'] as const;
export type Hj212ForwardKind = (typeof HJ212_FORWARD_KINDS)[number];
/** Minute intervals that divide an hour, as the standard's minute data uses them. */
export const HJ212_MINUTE_INTERVALS = [1, 2, 3, 5, 10, 15, 20, 30, 60] as const;

const hostName = z
  .string()
  .trim()
  .regex(/^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/, {
    message: 'hj212.rule.host',
  });
const codeList = z
  .string()
  .trim()
  .refine((v) => v === '' || v.split(',').every((c) => HJ212_CODE_PATTERN.test(c.trim())), { message: 'hj212.rule.codes' });
const kindList = z
  .string()
  .trim()
  .refine((v) => v !== '' && v.split(',').every((k) => (HJ212_FORWARD_KINDS as readonly string[]).includes(k.trim())), {
    message: 'hj212.rule.kinds',
  });

export const hj212ForwardDto = z.object({
  Id: z.number(),
  Name: z.string(),
  DeviceSn: z.string(),
  Host: z.string(),
  Port: z.number(),
  Mn: z.string(),
  /** Always masked. */
  Password: z.string(),
  /** Comma-separated pollutant codes; empty: every code the group maps. */
  Codes: z.string(),
  /** Comma-separated kinds (minute, hourly, daily). */
  Kinds: z.string(),
  MinuteInterval: z.number(),
  Enabled: z.boolean(),
  /** Epoch ms from which stored data is sent. */
  StartAt: z.number(),
  /** The link's state now: connected to the platform, the last packet it answered (ms), periods waiting. */
  Connected: z.boolean(),
  LastSent: z.number().nullable(),
  Backlog: z.number(),
  LastError: z.string(),
});
export type Hj212ForwardDto = z.infer<typeof hj212ForwardDto>;

const forwardFields = {
  Name: anyText(1, 64),
  DeviceSn: z.string().trim().min(1, { message: 'hj212.rule.device' }).max(64),
  Host: hostName,
  Port: z.coerce
    .number({ message: 'rule.number' })
    .int()
    .min(1, { message: 'hj212.rule.port' })
    .max(65535, { message: 'hj212.rule.port' }),
  Mn: hj212Mn,
  Codes: optional(codeList),
  Kinds: kindList,
  MinuteInterval: z.coerce
    .number({ message: 'rule.number' })
    .refine((v) => (HJ212_MINUTE_INTERVALS as readonly number[]).includes(v), { message: 'hj212.rule.interval' }),
  Enabled: z.boolean().optional(),
};
export const addHj212ForwardRequest = z.object({
  ...forwardFields,
  Password: hj212Password,
  /** Epoch ms from which stored data is sent (back-fill from an earlier time); now when not given. */
  StartAt: z.coerce
    .number({ message: 'rule.number' })
    .int()
    .min(946_684_800_000, { message: 'hj212.rule.startAt' })
    .default(() => Date.now()),
});
/** An update keeps the stored password when Password comes back empty or masked. */
export const updateHj212ForwardRequest = z.object({ Id: idRef, ...forwardFields, Password: z.string().max(64).optional() });
