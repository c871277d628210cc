/**
 * A data point's value as an operator reads it: a choice's label rather than its code (a boolean
 * or select point's option, an enum's level), a number with its format's decimals, and the unit.
 */
import { displayValue, isDataType } from '@sluice/shared/data-types';
import { shownFormat, useStoredName } from '../../lib/stored-names';
import { EmptyCell, ValueWithUnit } from '../cells';

export function DataValueText({
  dataType,
  format,
  value,
  unit,
}: {
  dataType: string;
  format: string;
  value: string | number | null | undefined;
  unit?: string;
}) {
  const name = useStoredName();
  if (value === null || value === undefined || value === '') return <EmptyCell />;
  const numeric = typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
  const text = isDataType(dataType) ? displayValue(dataType, shownFormat(name, dataType, format), numeric) : String(value);
  // Only a number takes the unit: a choice's label is a word.
  return <ValueWithUnit value={text} unit={/^-?\d+(\.\d+)?$/.test(text) ? unit : ''} />;
}
