/**
 * Data types of a data point (spec §3 Enumerations) and the rules for their DefaultValue and
 * Format (§9 Defaults). One place decides what a valid value of each type is, for the server,
 * the console's forms and the CSV import.
 *
 * Format by data type:
 * - boolean, boolean2: a JSON object labelling 0 and 1, default {"0":"0","1":"1"}.
 * - enum: a JSON object from integer keys to labels, default {"0":"low","1":"mid","2":"high"}.
 * - select: a JSON object from option values to labels (a JSON array of values is accepted
 *   and turned into one), default the baud rates {"1200":"1200","9600":"9600"}.
 * - readable, textbox, monitor (numbers): '' or the number of decimals (0–6), or a JSON object
 *   with any of Min, Max, Step and Decimals.
 * - time: '' (HH:mm:ss) or HH:mm or HH:mm:ss. date: '' or YYYY-MM-DD. datetime: '' or
 *   YYYY-MM-DD HH:mm:ss or YYYY-MM-DD HH:mm.
 * - string: no format.
 */
import { messageRef } from './rules.ts';
import { DEFAULT_DECIMALS, formatNumber, roundValue } from './number-format.ts';

export const DATA_TYPES = [
  'readable',
  'textbox',
  'boolean',
  'boolean2',
  'string',
  'enum',
  'monitor',
  'time',
  'select',
  'datetime',
  'date',
] as const;
export type DataType = (typeof DATA_TYPES)[number];

/** Types shown but never written from the console. */
export const READ_ONLY_DATA_TYPES: readonly DataType[] = ['readable', 'boolean2', 'monitor', 'datetime', 'date'];
export const NUMERIC_DATA_TYPES: readonly DataType[] = ['readable', 'textbox', 'monitor'];
export const OPTION_DATA_TYPES: readonly DataType[] = ['boolean', 'boolean2', 'enum', 'select'];

export const isDataType = (value: string): value is DataType => (DATA_TYPES as readonly string[]).includes(value);
export const isReadOnly = (type: DataType) => READ_ONLY_DATA_TYPES.includes(type);

export const DEFAULT_FORMATS: Partial<Record<DataType, Record<string, string>>> = {
  boolean: { '0': '0', '1': '1' },
  boolean2: { '0': '0', '1': '1' },
  enum: { '0': 'low', '1': 'mid', '2': 'high' },
  select: { '1200': '1200', '9600': '9600' },
};

/** The largest value a numeric control accepts when nothing else says (§9). */
export const DEFAULT_NUMBER_MAX = 2 ** 31;

export interface NumberFormat {
  Min?: number;
  Max?: number;
  Step?: number;
  Decimals?: number;
}

export interface DataOption {
  value: string;
  label: string;
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4}-\d{2}-\d{2})[ T]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

function validDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** The JSON value of `text`, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A plain object: not null, not an array. */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const scalar = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

/** Options of a boolean, enum or select format, in their written order (integer keys ascending). */
function parseOptions(type: DataType, format: string): Record<string, string> | string {
  const fallback = DEFAULT_FORMATS[type] ?? {};
  if (format.trim() === '') return { ...fallback };
  const parsed = parseJson(format);
  let options: Record<string, string> = {};
  if (Array.isArray(parsed) && type === 'select') {
    for (const item of parsed) {
      const value = isRecord(item) ? scalar(item.value ?? item.Value) : scalar(item);
      const label = isRecord(item) ? (scalar(item.label ?? item.Label) ?? value) : value;
      if (value === undefined || value.trim() === '' || label === undefined) return messageRef('rule.formatOptions');
      options[value.trim()] = label;
    }
  } else if (isRecord(parsed)) {
    for (const [key, raw] of Object.entries(parsed)) {
      const label = scalar(raw);
      if (key.trim() === '' || label === undefined) return messageRef('rule.formatOptions');
      options[key.trim()] = label;
    }
  } else {
    return messageRef('rule.formatOptions');
  }
  if (Object.keys(options).length === 0) return messageRef('rule.formatOptions');
  if (type === 'boolean' || type === 'boolean2') {
    const keys = Object.keys(options).sort();
    if (keys.join(',') !== '0,1') return messageRef('rule.formatBoolean');
  }
  if (type === 'enum' && !Object.keys(options).every((k) => /^-?\d+$/.test(k))) return messageRef('rule.formatEnum');
  if (type === 'enum') options = Object.fromEntries(Object.entries(options).sort(([a], [b]) => Number(a) - Number(b)));
  return options;
}

/** Reads a numeric format; a string result is the message of what is wrong. */
export function parseNumberFormat(format: string): NumberFormat | string {
  const text = format.trim();
  if (text === '') return {};
  if (/^\d$/.test(text)) return Number(text) <= 6 ? { Decimals: Number(text) } : messageRef('rule.formatNumber');
  const parsed = parseJson(text);
  if (!isRecord(parsed)) return messageRef('rule.formatNumber');
  const result: NumberFormat = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!['Min', 'Max', 'Step', 'Decimals'].includes(key) || typeof value !== 'number' || !Number.isFinite(value)) {
      return messageRef('rule.formatNumber');
    }
    result[key as keyof NumberFormat] = value;
  }
  if (result.Decimals !== undefined && (!Number.isInteger(result.Decimals) || result.Decimals < 0 || result.Decimals > 6)) {
    return messageRef('rule.formatNumber');
  }
  if (result.Step !== undefined && result.Step <= 0) return messageRef('rule.formatNumber');
  if (result.Min !== undefined && result.Max !== undefined && result.Min > result.Max) return messageRef('rule.minMax');
  return result;
}

/**
 * The canonical form of a format for a data type: defaults applied, JSON re-serialised.
 * Returns `{ issue }` (a message reference) when the format does not fit the type.
 */
export function normalizeFormat(type: DataType, format: string | undefined): { format: string } | { issue: string } {
  const text = (format ?? '').trim();
  if (OPTION_DATA_TYPES.includes(type)) {
    const options = parseOptions(type, text);
    return typeof options === 'string' ? { issue: options } : { format: JSON.stringify(options) };
  }
  if (NUMERIC_DATA_TYPES.includes(type)) {
    const parsed = parseNumberFormat(text);
    if (typeof parsed === 'string') return { issue: parsed };
    return { format: /^\d$/.test(text) || text === '' ? text : JSON.stringify(parsed) };
  }
  switch (type) {
    case 'time':
      return ['', 'HH:mm', 'HH:mm:ss'].includes(text) ? { format: text } : { issue: messageRef('rule.formatTime') };
    case 'date':
      return ['', 'YYYY-MM-DD'].includes(text) ? { format: text } : { issue: messageRef('rule.formatDate') };
    case 'datetime':
      return ['', 'YYYY-MM-DD HH:mm:ss', 'YYYY-MM-DD HH:mm'].includes(text)
        ? { format: text }
        : { issue: messageRef('rule.formatDate') };
    default:
      return text === '' ? { format: '' } : { issue: messageRef('rule.formatNone') };
  }
}

/** The options a boolean, enum or select data point offers (empty for other types or a bad format). */
export function optionsOf(type: DataType, format: string): DataOption[] {
  if (!OPTION_DATA_TYPES.includes(type)) return [];
  const options = parseOptions(type, format);
  return typeof options === 'string' ? [] : Object.entries(options).map(([value, label]) => ({ value, label }));
}

/** Checks a value (a default, a configured value) against its data type and format; returns a message reference or null. */
export function checkValue(type: DataType, format: string, value: string): string | null {
  const text = value.trim();
  if (text === '') return null;
  if (OPTION_DATA_TYPES.includes(type)) {
    const options = optionsOf(type, format);
    return options.some((o) => o.value === text)
      ? null
      : messageRef('rule.valueOption', { options: options.map((o) => o.value).join(', ') });
  }
  if (NUMERIC_DATA_TYPES.includes(type)) {
    if (!NUMBER.test(text)) return messageRef('rule.number');
    const parsed = parseNumberFormat(format);
    const n = Number(text);
    if (typeof parsed === 'string') return null;
    if (parsed.Min !== undefined && n < parsed.Min) return messageRef('rule.valueMin', { min: parsed.Min });
    if (n > (parsed.Max ?? DEFAULT_NUMBER_MAX)) return messageRef('rule.valueMax', { max: parsed.Max ?? DEFAULT_NUMBER_MAX });
    return null;
  }
  switch (type) {
    case 'time':
      return TIME.test(text) ? null : messageRef('rule.valueTime');
    case 'date':
      return validDate(text) ? null : messageRef('rule.valueDate');
    case 'datetime': {
      const m = DATETIME.exec(text);
      return m?.[1] !== undefined && validDate(m[1]) ? null : messageRef('rule.valueDate');
    }
    default:
      return text.length <= 200 ? null : messageRef('rule.length', { min: 0, max: 200 });
  }
}

export interface DataDefinitionIssue {
  field: 'DataType' | 'DefaultValue' | 'Format';
  message: string;
}

/**
 * Checks a data type with its default and format together. Returns the normalised format and
 * every issue, each naming its field.
 */
export function checkDataDefinition(input: {
  DataType: string;
  DefaultValue?: string | undefined;
  Format?: string | undefined;
}): {
  format: string;
  issues: DataDefinitionIssue[];
} {
  if (!isDataType(input.DataType)) {
    return {
      format: input.Format ?? '',
      issues: [{ field: 'DataType', message: messageRef('rule.dataType', { types: DATA_TYPES.join(', ') }) }],
    };
  }
  const normalized = normalizeFormat(input.DataType, input.Format);
  if ('issue' in normalized) return { format: input.Format ?? '', issues: [{ field: 'Format', message: normalized.issue }] };
  const problem = checkValue(input.DataType, normalized.format, input.DefaultValue ?? '');
  return { format: normalized.format, issues: problem ? [{ field: 'DefaultValue', message: problem }] : [] };
}

/** The decimals a number format shows: its Decimals, else 2 (spec §9). */
export function formatDecimals(format: string | undefined): number {
  const parsed = parseNumberFormat(format ?? '');
  return typeof parsed === 'string' || parsed.Decimals === undefined ? DEFAULT_DECIMALS : parsed.Decimals;
}

/**
 * A value as a screen shows it: an option's label for boolean, enum and select points, a
 * number with the format's decimals (else 2, spec §9), text as it is; a number on a point of
 * another type rounded to 3 decimals. An enum value above its largest key is lowered by 1 before
 * its label is looked up (spec §5's enum display).
 */
export function displayValue(type: DataType, format: string, value: number | string): string {
  if (OPTION_DATA_TYPES.includes(type)) {
    const options = parseOptions(type, format);
    if (typeof options === 'string') return String(value);
    const shown = type === 'enum' ? enumShownKey(Object.keys(options), value) : value;
    return options[String(shown)] ?? String(shown);
  }
  if (typeof value === 'number' && NUMERIC_DATA_TYPES.includes(type)) return formatNumber(value, formatDecimals(format));
  return typeof value === 'number' ? String(roundValue(value)) : value;
}

/** The key an enum value shows as: one less when it is a number above the largest numeric key. */
function enumShownKey(keys: string[], value: number | string): number | string {
  const n = Number(value);
  const numeric = keys.map(Number).filter((k) => Number.isFinite(k));
  if (String(value).trim() === '' || !Number.isFinite(n) || numeric.length === 0) return value;
  return n > Math.max(...numeric) ? n - 1 : value;
}
