/**
 * Parsing of what devices publish (docs/device-protocol.md). Nothing here throws: a payload is
 * either read, or refused with a reason that the pipeline logs and counts.
 */
import { DATA_KEY_PATTERN } from '@sluice/shared/schema-fields';
import { TIME_KEY, parseDeviceTime, type AckMessage, type DataValue } from '@sluice/shared/device-protocol';

export const MAX_PAYLOAD_BYTES = 256 * 1024;
/** Messages in one data payload (a gateway sending its buffer as an array). */
export const MAX_MESSAGES = 1000;
export const MAX_TEXT = 256;
/** How far ahead of the server's clock a device's Time may be. */
export const FUTURE_SLACK_MS = 24 * 3600_000;
/** The earliest Time a device may give (2000-01-01): anything before is a clock that was never set. */
export const EARLIEST_TIME = Date.UTC(2000, 0, 1);

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

export interface DataRecord {
  ts: number;
  values: Record<string, DataValue>;
  /** Values refused at parsing (bad key, null, object): key and reason. */
  refused: { key: string; reason: string }[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseJson(payload: Buffer): Parsed<unknown> {
  if (payload.length === 0) return { ok: false, reason: 'empty payload' };
  if (payload.length > MAX_PAYLOAD_BYTES) return { ok: false, reason: `payload larger than ${String(MAX_PAYLOAD_BYTES)} bytes` };
  try {
    return { ok: true, value: JSON.parse(payload.toString('utf8')) as unknown };
  } catch {
    return { ok: false, reason: 'payload is not JSON' };
  }
}

/** A device's value as it came, short enough for a reason. */
const shown = (value: unknown) => {
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

/**
 * A record's time: within [2000-01-01, a day ahead of the server's clock]. The reasons show the
 * device's value as it came, never a formatted date (a nanosecond clock is beyond what a Date holds).
 */
function timeOf(raw: Record<string, unknown>, offsetMinutes: number, now: number): Parsed<number> {
  const value = raw[TIME_KEY];
  if (value === undefined || value === null || value === '') return { ok: true, value: now };
  const ts = parseDeviceTime(value, offsetMinutes);
  if (ts === undefined) return { ok: false, reason: `Time ${shown(value)} is not a time` };
  if (ts < EARLIEST_TIME) return { ok: false, reason: `Time ${shown(value)} is before 2000-01-01` };
  if (ts > now + FUTURE_SLACK_MS) return { ok: false, reason: `Time ${shown(value)} is more than a day in the future` };
  return { ok: true, value: ts };
}

/** Text a database can hold: PostgreSQL refuses the NUL character in text. */
const storable = (text: string) => !text.includes('\u0000');
/** Text for a log or a record: control characters blanked, at most `max` characters. */
export const printable = (text: string, max: number) =>
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  text.replace(/[\u0000-\u001f\u007f]/g, ' ').slice(0, max);

/** A data payload: one object of data points keyed by DataKey, or an array of them. */
export function parseData(payload: Buffer, offsetMinutes: number, now: number): Parsed<DataRecord[]> {
  const json = parseJson(payload);
  if (!json.ok) return json;
  const list = Array.isArray(json.value) ? json.value : [json.value];
  if (list.length === 0) return { ok: false, reason: 'no data points' };
  if (list.length > MAX_MESSAGES) return { ok: false, reason: `more than ${String(MAX_MESSAGES)} records in one payload` };
  const records: DataRecord[] = [];
  for (const item of list) {
    if (!isRecord(item)) return { ok: false, reason: 'data must be a JSON object of data points (or an array of them)' };
    const ts = timeOf(item, offsetMinutes, now);
    if (!ts.ok) return ts;
    const values: Record<string, DataValue> = {};
    const refused: DataRecord['refused'] = [];
    for (const [key, value] of Object.entries(item)) {
      if (key === TIME_KEY) continue;
      if (!DATA_KEY_PATTERN.test(key)) refused.push({ key, reason: 'not a DataKey' });
      else if (typeof value === 'number') {
        if (Number.isFinite(value)) values[key] = value;
        else refused.push({ key, reason: 'not a finite number' });
      } else if (typeof value === 'boolean') values[key] = value;
      else if (typeof value === 'string') {
        if (value.length > MAX_TEXT) refused.push({ key, reason: `text longer than ${String(MAX_TEXT)}` });
        else if (!storable(value)) refused.push({ key, reason: 'text with a NUL character' });
        else values[key] = value;
      } else refused.push({ key, reason: `a ${value === null ? 'null' : typeof value} is not a value` });
    }
    if (Object.keys(values).length === 0 && refused.length === 0) return { ok: false, reason: 'no data points' };
    records.push({ ts: ts.value, values, refused });
  }
  return { ok: true, value: records };
}

/** An error payload: `{ Codes: [...] }` (the codes active now), a bare array, or `{ Code, Active }` for one code. */
export function parseError(
  payload: Buffer,
  offsetMinutes: number,
  now: number,
): Parsed<{ ts: number; codes?: string[]; change?: { code: string; active: boolean } }> {
  const json = parseJson(payload);
  if (!json.ok) return json;
  const raw = Array.isArray(json.value) ? { Codes: json.value } : json.value;
  if (!isRecord(raw)) return { ok: false, reason: 'an error message is a JSON object' };
  const ts = timeOf(raw, offsetMinutes, now);
  if (!ts.ok) return ts;
  const code = (v: unknown) =>
    typeof v === 'number' && Number.isInteger(v) ? String(v) : typeof v === 'string' ? v.trim() : undefined;
  const valid = (c: string | undefined): c is string => c !== undefined && /^[A-Za-z0-9_.:-]{1,32}$/.test(c);
  if (Array.isArray(raw.Codes)) {
    const codes = raw.Codes.map(code);
    if (!codes.every(valid)) return { ok: false, reason: 'Codes must be codes of 1–32 letters, digits or _ . : -' };
    if (codes.length > 200) return { ok: false, reason: 'more than 200 codes' };
    return { ok: true, value: { ts: ts.value, codes: [...new Set(codes)] } };
  }
  const one = code(raw.Code);
  if (!valid(one)) return { ok: false, reason: 'an error message needs Codes (a list) or Code' };
  const active = raw.Active === undefined || raw.Active === 1 || raw.Active === true || raw.Active === '1';
  return { ok: true, value: { ts: ts.value, change: { code: one, active } } };
}

/** A status payload: `{ Online: 0|1 }` (also the bare text 0/1, online/offline). */
export function parseStatus(
  payload: Buffer,
  offsetMinutes: number,
  now: number,
): Parsed<{ ts: number; online: boolean; version?: string }> {
  const text = payload.toString('utf8').trim().toLowerCase();
  if (['1', 'online', 'true'].includes(text)) return { ok: true, value: { ts: now, online: true } };
  if (['0', 'offline', 'false'].includes(text)) return { ok: true, value: { ts: now, online: false } };
  const json = parseJson(payload);
  if (!json.ok) return json;
  if (!isRecord(json.value)) return { ok: false, reason: 'a status message is a JSON object' };
  const online = json.value.Online;
  if (![0, 1, true, false, '0', '1'].includes(online as never)) return { ok: false, reason: 'Online must be 0 or 1' };
  const ts = timeOf(json.value, offsetMinutes, now);
  const version = json.value.Version;
  return {
    ok: true,
    value: {
      ts: ts.ok ? ts.value : now,
      online: online === 1 || online === true || online === '1',
      ...(typeof version === 'string' ? { version: printable(version, 64) } : {}),
    },
  };
}

/** A command acknowledgement: `{ Id, Success, Value?, Message? }`. */
export function parseAck(payload: Buffer): Parsed<AckMessage> {
  const json = parseJson(payload);
  if (!json.ok) return json;
  const raw = json.value;
  if (!isRecord(raw) || typeof raw.Id !== 'string' || !/^[\x21-\x7e]{1,64}$/.test(raw.Id))
    return { ok: false, reason: 'an acknowledgement needs the command Id' };
  const success = raw.Success === undefined || raw.Success === true || raw.Success === 1 || raw.Success === '1';
  const ack: AckMessage = { Id: raw.Id, Success: success };
  if (typeof raw.Value === 'number' || typeof raw.Value === 'boolean') ack.Value = raw.Value;
  if (typeof raw.Value === 'string') ack.Value = printable(raw.Value, MAX_TEXT);
  if (typeof raw.Message === 'string') ack.Message = printable(raw.Message, 200);
  return { ok: true, value: ack };
}
