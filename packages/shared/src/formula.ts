/**
 * A control's Formula (spec §3 Control) names the data keys of its set value and its current
 * value: JSON {"SettingValue": "...", "CurrentValue": "..."} or the text 'setting||current'.
 */
import { isRecord, parseJson } from './data-types.ts';

export interface ControlFormula {
  SettingValue: string;
  CurrentValue: string;
}

/** The two keys of a formula, or undefined when it is neither form. '' is no formula. */
export function parseFormula(text: string): ControlFormula | undefined {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    const parsed = parseJson(trimmed);
    if (!isRecord(parsed)) return undefined;
    const { SettingValue, CurrentValue } = parsed;
    if (typeof SettingValue !== 'string' || typeof CurrentValue !== 'string') return undefined;
    if (SettingValue.trim() === '' || CurrentValue.trim() === '') return undefined;
    return { SettingValue: SettingValue.trim(), CurrentValue: CurrentValue.trim() };
  }
  const parts = trimmed.split('||').map((p) => p.trim());
  if (parts.length !== 2 || parts.some((p) => p === '')) return undefined;
  return { SettingValue: parts[0] ?? '', CurrentValue: parts[1] ?? '' };
}

export const isValidFormula = (text: string) => text.trim() === '' || parseFormula(text) !== undefined;
