/**
 * A data point's value checked against its data definition (the device's own data points, else
 * its type's): numbers for the numeric types, 0/1 for switches, option keys for enums, text for
 * text and times. Keys without a definition are kept and flagged; wrong values are refused.
 */
import type { DataValue } from '@sluice/shared/device-protocol';
import { isDataType } from '@sluice/shared/data-types';

export interface PointDefinition {
  /** A DataType; anything else is stored as it comes. */
  type: string;
  name: string;
  unit: string;
}

/** A stored value: a number (num) or a text (txt). */
export interface StoredValue {
  num: number | null;
  txt: string | null;
}

export type Checked = { ok: true; value: StoredValue } | { ok: false; reason: string };

const NUMERIC = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

function asNumber(value: DataValue): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  const text = value.trim();
  return NUMERIC.test(text) ? Number(text) : undefined;
}

/** How a value of a key without a definition is kept: numbers and switches as numbers, the rest as text. */
export function storeUndefined(value: DataValue): StoredValue {
  if (typeof value === 'number') return { num: value, txt: null };
  if (typeof value === 'boolean') return { num: value ? 1 : 0, txt: null };
  return { num: null, txt: value };
}

export function checkValue(value: DataValue, type: string): Checked {
  if (!isDataType(type)) return { ok: true, value: storeUndefined(value) };
  switch (type) {
    case 'readable':
    case 'textbox':
    case 'monitor': {
      const n = asNumber(value);
      return n === undefined
        ? { ok: false, reason: `${JSON.stringify(value)} is not a number (${type})` }
        : { ok: true, value: { num: n, txt: null } };
    }
    case 'boolean':
    case 'boolean2': {
      const n = asNumber(value);
      return n === 0 || n === 1
        ? { ok: true, value: { num: n, txt: null } }
        : { ok: false, reason: `${JSON.stringify(value)} is not 0 or 1 (${type})` };
    }
    case 'enum': {
      const n = asNumber(value);
      return n !== undefined && Number.isInteger(n)
        ? { ok: true, value: { num: n, txt: null } }
        : { ok: false, reason: `${JSON.stringify(value)} is not an option number (enum)` };
    }
    case 'select': {
      const n = typeof value === 'boolean' ? undefined : asNumber(value);
      if (n !== undefined) return { ok: true, value: { num: n, txt: null } };
      return typeof value === 'string'
        ? { ok: true, value: { num: null, txt: value } }
        : { ok: false, reason: 'a switch value is not an option (select)' };
    }
    case 'string':
      return { ok: true, value: { num: null, txt: String(value) } };
    case 'time':
    case 'date':
    case 'datetime':
      return typeof value === 'boolean'
        ? { ok: false, reason: `a switch value is not a ${type}` }
        : { ok: true, value: { num: null, txt: String(value) } };
  }
}
