/**
 * Type statistics rules (spec §3 Type statistics, §5 Statistics): kinds, range filters written
 * 'min,max', and standards (a maximum, or 'min,max' for a band such as pH 6–9).
 */
export const STATICS_TYPES = ['instantaneous', 'cumulative', 'discrete'] as const;
export type StaticsType = (typeof STATICS_TYPES)[number];

/** Filter modes: none, or a max-min range filter. */
export const FILTER_TYPES = ['none', 'range'] as const;
export type FilterType = (typeof FILTER_TYPES)[number];

export const DISPLAY_TYPES = ['chart', 'table'] as const;

export interface Range {
  min?: number;
  max?: number;
}

const NUMBER = /^-?\d+(\.\d+)?$/;

/** 'min,max' with min ≤ max, as a range filter reads; undefined when malformed. */
export function parseRangeFilter(text: string): { min: number; max: number } | undefined {
  const parts = text
    .replace(/，/g, ',')
    .split(',')
    .map((p) => p.trim());
  if (parts.length !== 2 || !parts.every((p) => NUMBER.test(p))) return undefined;
  const [min, max] = parts.map(Number) as [number, number];
  return min <= max ? { min, max } : undefined;
}

/** A standard: '' (none), a maximum '50', or a band 'min,max' ('6,9'). Undefined when malformed. */
export function parseStandard(text: string): Range | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return {};
  if (NUMBER.test(trimmed)) return { max: Number(trimmed) };
  return parseRangeFilter(trimmed);
}

/** A value after the range filter: out of range counts as zero (§5). */
export function applyRangeFilter(value: number, filterType: string, filter: string): number {
  if (filterType !== 'range') return value;
  const range = parseRangeFilter(filter);
  if (!range) return value;
  return value < range.min || value > range.max ? 0 : value;
}

/** Whether a daily value counts: no standard, or below 100 times the standard (§5). */
export function dailyValueCounts(value: number, standard: string): boolean {
  const parsed = parseStandard(standard);
  if (parsed?.max === undefined) return true;
  return value < parsed.max * 100;
}

/** Whether a value meets its standard (always, when there is none). */
export function meetsStandard(value: number, standard: string): boolean {
  const parsed = parseStandard(standard) ?? {};
  if (parsed.min !== undefined && value < parsed.min) return false;
  if (parsed.max !== undefined && value > parsed.max) return false;
  return true;
}
