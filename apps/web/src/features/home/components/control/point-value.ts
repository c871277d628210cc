/** A control's value as the user reads it: an option's label, or a number in its format with its unit. */
import { displayValue, isDataType } from '@sluice/shared/data-types';
import type { ControlPointDto } from '@sluice/shared/device-control.schema';

const OPTION_TYPES = ['boolean', 'boolean2', 'enum', 'select'];

export function pointValue(point: ControlPointDto, value: number | string | boolean | undefined): string {
  if (value === undefined || value === '') return '—';
  const raw = typeof value === 'boolean' ? (value ? 1 : 0) : value;
  const text = isDataType(point.DataType) ? displayValue(point.DataType, point.Format, raw) : String(raw);
  return point.Unit && !OPTION_TYPES.includes(point.DataType) ? `${text} ${point.Unit}` : text;
}
